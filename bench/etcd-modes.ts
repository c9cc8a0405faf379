import { median } from './report';

/**
 * The stores a suite compares side by side: MEMBERS/LATENCY, such as 3/model (the cluster's
 * default: three Raft members under the latency model) or 1/instant (one member whose requests
 * complete in the virtual instant they are made, the timing before the model was on).
 */
export interface EtcdMode {
  readonly text: string;
  readonly members: number;
  readonly latency: 'model' | 'instant';
}

export function parseEtcdModes(suite: string, list: string): EtcdMode[] {
  return list.split(',').map((text) => {
    const [members, latency] = text.split('/');
    const n = Number(members);
    if (!(n === 1 || n === 3 || n === 5) || (latency !== 'model' && latency !== 'instant')) throw new Error(`bench ${suite}: --etcd ${JSON.stringify(text)}: use MEMBERS/LATENCY such as 3/model or 1/instant`);
    return { text, members: n, latency };
  });
}

/**
 * The order the modes run in round `round` (counted from 0) of `--repeat`: as given in even
 * rounds, reversed in odd ones, so that with two modes each runs first in half of the rounds
 * (whichever runs first in a process pays for the code's first compilation and for a smaller
 * heap, and meets the machine's load at another moment).
 */
export function roundOrder<T>(modes: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...modes] : [...modes].reverse();
}

/** One round's wall and CPU time (ms) per mode, by the mode's text. */
export interface ModeRound {
  readonly wall: ReadonlyMap<string, number>;
  readonly cpu: ReadonlyMap<string, number>;
}

export interface RoundsSummary {
  /** Per mode, in the order the modes were given: the median wall and CPU time over the rounds. */
  readonly modes: { text: string; medianWallMs: number; medianCpuMs: number }[];
  /** With two modes: each round's wall and CPU ratio, first mode over second, in round order. */
  readonly ratios: number[];
  readonly cpuRatios: number[];
  /** The median of the rounds' ratios (not the ratio of the medians): each round's pair ran side by side. */
  readonly medianRatio: number;
  readonly medianCpuRatio: number;
}

export function summarizeRounds(modes: readonly EtcdMode[], rounds: readonly ModeRound[]): RoundsSummary {
  const of = (r: ModeRound, which: 'wall' | 'cpu', text: string): number => {
    const v = r[which].get(text);
    if (v === undefined) throw new Error(`bench: round without a time for ${text}`);
    return v;
  };
  const pair = modes.length === 2 ? [modes[0]!.text, modes[1]!.text] : undefined;
  const ratios = pair ? rounds.map((r) => of(r, 'wall', pair[0]!) / of(r, 'wall', pair[1]!)) : [];
  const cpuRatios = pair ? rounds.map((r) => of(r, 'cpu', pair[0]!) / of(r, 'cpu', pair[1]!)) : [];
  return {
    modes: modes.map((m) => ({ text: m.text, medianWallMs: median(rounds.map((r) => of(r, 'wall', m.text))), medianCpuMs: median(rounds.map((r) => of(r, 'cpu', m.text))) })),
    ratios,
    cpuRatios,
    medianRatio: median(ratios),
    medianCpuRatio: median(cpuRatios),
  };
}

/** --repeat N: the rounds to run, 1 (the default) to 50. */
export function parseRepeat(suite: string, text: string | undefined): number {
  if (text === undefined) return 1;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 50) throw new Error(`bench ${suite}: --repeat ${JSON.stringify(text)}: use a whole number of rounds from 1 to 50`);
  return n;
}

/** What one run of cluster (b) is: its size, its records' detail and whether it counts work units. */
export interface DeploymentsRun {
  readonly nodes: number;
  readonly deployments: number;
  readonly replicas: number;
  readonly detail: string;
  readonly counts: boolean;
}

/**
 * The arguments of the benchmark runner for one run of cluster (b) with one store in a process
 * of its own (the runner's script and node's own flags, such as --expose-gc and the heap limit,
 * go before them): the deployments run alone, that store alone, in process, sizes resolved (so
 * that --quick means the same in the child), records as JSON lines.
 */
export function freshRunArgs(mode: EtcdMode, run: DeploymentsRun): string[] {
  return [
    'cluster',
    '--only', 'deployments',
    '--in-process',
    '--etcd', mode.text,
    '--nodes', String(run.nodes),
    '--deployments', String(run.deployments),
    '--replicas', String(run.replicas),
    '--detail', run.detail,
    ...(run.counts ? ['--counts'] : []),
    '--json',
  ];
}
