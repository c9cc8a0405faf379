/**
 * The flags of the simulated etcd cluster: how many members (--etcd-members), what each request
 * costs (--etcd-latency model|instant), and faults on the virtual clock
 * (--etcd-fault ACTION:TARGET@TIME, repeatable: stop, start, partition, heal or slow; TARGET is
 * `leader` or a member name such as etcd-1; TIME a virtual duration from the start of the run,
 * such as 20s).
 */
import { DEFAULT_MEMBERS, type EtcdCluster, type MemberStatus } from '../engine/store/etcdserver';
import { isInstant } from '../engine/store/etcdserver/latency';
import type { Clock } from '../engine/clock';
import { parseDuration } from './duration';

export type FaultAction = 'stop' | 'start' | 'partition' | 'heal' | 'slow';

export interface EtcdFault {
  readonly action: FaultAction;
  readonly target: string;
  readonly atMs: number;
  /** The flag as given, for messages. */
  readonly text: string;
}

export interface EtcdSimFlags {
  members?: number;
  latency?: 'model' | 'instant';
  faults: EtcdFault[];
}

export const ETCD_SIM_FLAGS_USAGE = `      --etcd-members <n>  Members of the simulated etcd cluster, etcd-0 ... (1, 3 or 5; default 3).
      --etcd-latency <model|instant>
                          "model" (default): every request pays the API server's work, the
                          WAL fsync and the replication round trip in virtual time; "instant":
                          requests complete in the instant they are made.
      --etcd-fault <action>:<target>@<time>
                          A fault on the virtual clock (repeatable): action stop, start,
                          partition, heal or slow (disk); target leader or a member (etcd-1);
                          time from the start of the run, such as 20s.
`;

const FLAGS = new Set(['--etcd-members', '--etcd-latency', '--etcd-fault']);
const ACTIONS = new Set<FaultAction>(['stop', 'start', 'partition', 'heal', 'slow']);

export function isEtcdSimFlag(flag: string): boolean {
  return FLAGS.has(flag);
}

/** Records one flag's value; returns the usage error, if any. */
export function parseEtcdSimFlag(flag: string, value: string | undefined, into: EtcdSimFlags): string | undefined {
  if (value === undefined || value === '') return `error: flag needs an argument: ${flag}`;
  if (flag === '--etcd-members') {
    const n = Number(value);
    if (!(n === 1 || n === 3 || n === 5)) return `error: invalid value for --etcd-members: ${JSON.stringify(value)} (use 1, 3 or 5)`;
    into.members = n;
    return undefined;
  }
  if (flag === '--etcd-latency') {
    if (value !== 'model' && value !== 'instant') return `error: invalid value for --etcd-latency: ${JSON.stringify(value)} (use model or instant)`;
    into.latency = value;
    return undefined;
  }
  const m = /^([a-z]+):([A-Za-z0-9._-]+)@(.+)$/.exec(value);
  if (!m) return `error: invalid value for --etcd-fault: ${JSON.stringify(value)} (use ACTION:TARGET@TIME, such as stop:leader@20s)`;
  const [, action, target, time] = m;
  if (!ACTIONS.has(action as FaultAction)) return `error: invalid --etcd-fault action ${JSON.stringify(action)} (use stop, start, partition, heal or slow)`;
  if (target !== 'leader' && !/^etcd-\d+$/.test(target!)) return `error: invalid --etcd-fault target ${JSON.stringify(target)} (use leader or a member name such as etcd-1)`;
  const atMs = parseDuration(time!);
  if (atMs === undefined) return `error: invalid --etcd-fault time ${JSON.stringify(time)} (use a virtual duration such as 20s)`;
  into.faults.push({ action: action as FaultAction, target: target!, atMs, text: value });
  return undefined;
}

/** Checks the faults' targets against the cluster's members. */
export function checkFaultTargets(flags: EtcdSimFlags, members: number = flags.members ?? DEFAULT_MEMBERS): string | undefined {
  for (const f of flags.faults) {
    if (f.target === 'leader') continue;
    const i = Number(f.target.slice('etcd-'.length));
    if (!(i < members)) return `error: --etcd-fault ${f.text}: etcd member "${f.target}" not found (members: ${Array.from({ length: members }, (_, k) => `etcd-${k}`).join(', ')})`;
  }
  return undefined;
}

/**
 * Schedules the faults on the clock, from `startMs`. A fault whose target cannot be resolved
 * then (no leader to stop) is recorded in the cluster's trace as the member event would be,
 * and reported to `onSkipped`.
 */
export function scheduleFaults(cluster: EtcdCluster, clock: Clock, faults: readonly EtcdFault[], onSkipped: (fault: EtcdFault, why: string) => void): void {
  for (const f of faults) {
    clock.setTimer(
      f.atMs,
      () => {
        try {
          switch (f.action) {
            case 'stop':
              cluster.stop(f.target);
              break;
            case 'start':
              cluster.start(f.target);
              break;
            case 'partition':
              cluster.partition(f.target);
              break;
            case 'heal':
              cluster.heal(f.target);
              break;
            case 'slow':
              cluster.slowDisk(f.target);
              break;
          }
        } catch (err) {
          onSkipped(f, err instanceof Error ? err.message : String(err));
        }
      },
      { label: `etcd fault ${f.text}` },
    );
  }
}

/** One line on the simulated etcd, for `kubesim serve`'s banner. */
export function etcdSummary(cluster: EtcdCluster): string {
  const members = cluster.status().map((m) => (m.role === 'leader' ? `${m.name} leader` : m.name));
  const l = cluster.latency;
  const latency = isInstant(l) ? 'instant latency' : `the latency model (API server ${l.apiserverMs} ms, round trip ${l.rttMs} ms, WAL fsync ${l.walFsyncMs} ms)`;
  return `simulated etcd: ${members.length} member${members.length === 1 ? '' : 's'} (${members.join(', ')}), ${latency}`;
}

/** The "etcd" block of `--output json`: each member as `endpoint status` would describe it. */
export function etcdJson(cluster: EtcdCluster): { members: Pick<MemberStatus, 'name' | 'role' | 'state' | 'term' | 'commitIndex' | 'appliedIndex' | 'revision' | 'dbSizeBytes'>[] } {
  return {
    members: cluster.status().map((m) => ({
      name: m.name,
      role: m.role,
      state: m.state,
      term: m.term,
      commitIndex: m.commitIndex,
      appliedIndex: m.appliedIndex,
      revision: m.revision,
      dbSizeBytes: m.dbSizeBytes,
    })),
  };
}
