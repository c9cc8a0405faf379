/**
 * How a simulated container behaves: when its process exits (and how), when it starts answering
 * probes, whether readiness or liveness checks fail, how it reacts to SIGTERM. Pods steer it with
 * the annotation `kubesim.dev/behavior` (docs/behavior.md):
 *
 *   kubesim.dev/behavior: "crash-after=30s"
 *   kubesim.dev/behavior: "web: fail-readiness-after=1m; log-shipper: exit=0 after=5s"
 *
 * Clauses are separated by ";". A clause may start with "<container>:" and then applies to that
 * container (init containers and sidecars included); without one it applies to every regular
 * container. Terms inside a clause are separated by spaces or commas. A malformed annotation is
 * ignored as a whole and reported, so a typo never half-applies.
 */
import { goQuote } from '../api/gofmt';
import { parseQuantity } from '../api/quantity';
import { isSidecar, type Container, type Pod } from './api';
import { parseVirtualDuration } from '../api/duration';
import { firstCrossing, parseCurve, type Curve, type UsageSpec } from './usage';

export const BEHAVIOR_ANNOTATION = 'kubesim.dev/behavior';

export type ExitKind = 'exit' | 'oom';

export interface ExitPlan {
  kind: ExitKind;
  /** The exit code; 137 for an OOM kill. */
  code: number;
  /** How long after the process starts. */
  afterMs: number;
}

export interface ContainerBehavior {
  /** When and how the process ends on its own; undefined: it runs until stopped. */
  exit?: ExitPlan;
  /** Until this long after start the process does not accept connections (probes are refused). */
  startDelayMs: number;
  /** From this long after start, readiness checks answer 503; undefined: never. */
  failReadinessAfterMs?: number;
  /** From this long after start, liveness checks answer 500; undefined: never. */
  failLivenessAfterMs?: number;
  /** How long the process takes to answer a probe (beyond timeoutSeconds, the probe times out). */
  probeDelayMs: number;
  /** The process ignores SIGTERM and only a SIGKILL at the end of the grace period stops it. */
  ignoreSigterm: boolean;
  /** How long the process takes to exit after SIGTERM. */
  shutdownDelayMs: number;
  /** CPU and memory levels (usage.ts); absent: the idle footprint of its image. */
  usage?: UsageSpec;
}

/** Batch work (containers of pods that are not restarted, init containers) completes by default. */
const BATCH_RUN_MS = 5000;
const INIT_RUN_MS = 1000;

const RUNS_FOREVER: ContainerBehavior = Object.freeze({ startDelayMs: 0, probeDelayMs: 0, ignoreSigterm: false, shutdownDelayMs: 0 });

export interface PodBehavior {
  /** Per container name. */
  readonly containers: ReadonlyMap<string, ContainerBehavior>;
  /** Why the annotation was ignored, when it was. */
  readonly error?: string;
}

type Term = { key: string; value: string | undefined };

type Overrides = Partial<ContainerBehavior> & { exit?: ExitPlan; exitTerm?: string };

const DURATION_KEYS = ['crash-after', 'oom-after', 'after', 'start-delay', 'fail-readiness-after', 'fail-liveness-after', 'probe-delay', 'shutdown-delay'] as const;
const FLAG_KEYS = ['fail-readiness', 'fail-liveness', 'ignore-sigterm'] as const;
const USAGE_KEYS = ['cpu', 'memory', 'cpu-load'] as const;
const KNOWN_KEYS = [...DURATION_KEYS, ...FLAG_KEYS, ...USAGE_KEYS, 'exit'].sort();

class BehaviorError extends Error {}

/** The default behavior of every container of a pod, then the annotation's, if it is valid. */
export function podBehavior(pod: Pod): PodBehavior {
  const defaults = defaultBehaviors(pod);
  const text = pod.metadata.annotations?.[BEHAVIOR_ANNOTATION];
  if (text === undefined) return { containers: defaults };
  try {
    return { containers: applyAnnotation(text, pod, defaults) };
  } catch (err) {
    if (!(err instanceof BehaviorError)) throw err;
    return { containers: defaults, error: err.message };
  }
}

function defaultBehaviors(pod: Pod): Map<string, ContainerBehavior> {
  const out = new Map<string, ContainerBehavior>();
  const batch = (pod.spec?.restartPolicy ?? 'Always') !== 'Always';
  for (const c of pod.spec?.initContainers ?? []) {
    out.set(c.name, isSidecar(c) ? RUNS_FOREVER : { ...RUNS_FOREVER, exit: { kind: 'exit', code: 0, afterMs: INIT_RUN_MS } });
  }
  for (const c of pod.spec?.containers ?? []) {
    out.set(c.name, batch ? { ...RUNS_FOREVER, exit: { kind: 'exit', code: 0, afterMs: BATCH_RUN_MS } } : RUNS_FOREVER);
  }
  return out;
}

function applyAnnotation(text: string, pod: Pod, defaults: Map<string, ContainerBehavior>): Map<string, ContainerBehavior> {
  const regular = (pod.spec?.containers ?? []).map((c) => c.name);
  const all = new Set([...(pod.spec?.initContainers ?? []).map((c) => c.name), ...regular]);
  const shared: Overrides = {};
  const specific = new Map<string, Overrides>();
  let clauses = 0;
  for (const raw of text.split(/[;\n]/)) {
    const clause = raw.trim();
    if (clause === '') continue;
    clauses++;
    const prefixed = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\s*:\s*(.*)$/.exec(clause);
    const body = prefixed ? prefixed[3]! : clause;
    let target = shared;
    if (prefixed) {
      const name = prefixed[1]!;
      if (!all.has(name)) throw new BehaviorError(`no container named ${goQuote(name)} in the pod (containers: ${[...all].join(', ')})`);
      target = specific.get(name) ?? {};
      specific.set(name, target);
    }
    const terms = body.split(/[\s,]+/).filter((t) => t !== '');
    if (terms.length === 0) throw new BehaviorError(`empty clause ${goQuote(clause)}`);
    applyTerms(terms.map(parseTerm), target);
  }
  if (clauses === 0) throw new BehaviorError('the annotation is empty');
  const out = new Map(defaults);
  for (const name of regular) out.set(name, merge(defaults.get(name)!, shared));
  for (const [name, o] of specific) out.set(name, merge(out.get(name)!, o));
  const specs = new Map([...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => [c.name, c]));
  for (const [name, b] of out) out.set(name, withMemoryLimit(b, specs.get(name)));
  return out;
}

function parseTerm(term: string): Term {
  const eq = term.indexOf('=');
  return eq < 0 ? { key: term, value: undefined } : { key: term.slice(0, eq), value: term.slice(eq + 1) };
}

function applyTerms(terms: Term[], o: Overrides): void {
  let after: number | undefined;
  let exitCode: number | undefined;
  for (const { key, value } of terms) {
    if (!KNOWN_KEYS.includes(key)) throw new BehaviorError(`unknown term ${goQuote(key)} (known: ${KNOWN_KEYS.join(', ')})`);
    if ((FLAG_KEYS as readonly string[]).includes(key)) {
      if (value !== undefined) throw new BehaviorError(`${key} takes no value`);
    } else if (value === undefined || value === '') {
      throw new BehaviorError(`${key} needs a value (${valueHint(key)})`);
    }
    switch (key) {
      case 'exit':
        exitCode = parseExitCode(value!);
        setExit(o, key, { kind: 'exit', code: exitCode, afterMs: 0 });
        break;
      case 'after':
        after = duration(key, value!);
        break;
      case 'crash-after':
        setExit(o, key, { kind: 'exit', code: 1, afterMs: duration(key, value!) });
        break;
      case 'oom-after':
        setExit(o, key, { kind: 'oom', code: 137, afterMs: duration(key, value!) });
        break;
      case 'start-delay':
        o.startDelayMs = duration(key, value!);
        break;
      case 'fail-readiness':
        o.failReadinessAfterMs = 0;
        break;
      case 'fail-readiness-after':
        o.failReadinessAfterMs = duration(key, value!);
        break;
      case 'fail-liveness':
        o.failLivenessAfterMs = 0;
        break;
      case 'fail-liveness-after':
        o.failLivenessAfterMs = duration(key, value!);
        break;
      case 'probe-delay':
        o.probeDelayMs = duration(key, value!);
        break;
      case 'ignore-sigterm':
        o.ignoreSigterm = true;
        break;
      case 'shutdown-delay':
        o.shutdownDelayMs = duration(key, value!);
        break;
      case 'cpu':
        o.usage = { ...o.usage, cpu: curve(key, value!, 'cpu') };
        break;
      case 'memory':
        o.usage = { ...o.usage, memory: curve(key, value!, 'memory') };
        break;
      case 'cpu-load':
        o.usage = { ...o.usage, cpuLoad: curve(key, value!, 'cpu') };
        break;
    }
  }
  if (after !== undefined) {
    if (exitCode === undefined) throw new BehaviorError('after needs exit in the same clause (exit=0 after=5s)');
    o.exit = { kind: 'exit', code: exitCode, afterMs: after };
  }
}

function setExit(o: Overrides, term: string, plan: ExitPlan): void {
  if (o.exitTerm !== undefined) throw new BehaviorError(`${o.exitTerm} and ${term} both say when the container exits`);
  o.exitTerm = term;
  o.exit = plan;
}

function parseExitCode(value: string): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) > 255) throw new BehaviorError(`exit: ${goQuote(value)} is not an exit code (0-255)`);
  return Number(value);
}

function valueHint(key: string): string {
  if (key === 'exit') return 'an exit code';
  if (key === 'memory') return 'a quantity such as 64Mi, or a curve such as 64Mi>256Mi@5m';
  if (key === 'cpu' || key === 'cpu-load') return 'a quantity such as 250m, or a curve such as 100m>900m@2m';
  return 'a duration such as 30s';
}

function curve(key: string, value: string, resource: 'cpu' | 'memory'): Curve {
  const c = parseCurve(key, value, resource);
  if (!c.ok) throw new BehaviorError(c.error);
  return c.value;
}

function duration(key: string, value: string): number {
  const ms = parseVirtualDuration(value);
  if (!ms.ok) throw new BehaviorError(`${key}: ${ms.error}`);
  return ms.value;
}

function merge(base: ContainerBehavior, o: Overrides): ContainerBehavior {
  const { exitTerm: _term, usage, ...fields } = o;
  const merged: ContainerBehavior = { ...base, ...fields };
  if (usage) merged.usage = { ...base.usage, ...usage };
  return merged;
}

/** A memory level above the container's memory limit ends in an OOM kill when it gets there. */
function withMemoryLimit(b: ContainerBehavior, spec: Container | undefined): ContainerBehavior {
  const memory = b.usage?.memory;
  const limitText = spec?.resources?.limits?.memory;
  if (!memory || limitText === undefined) return b;
  const limit = parseQuantity(String(limitText));
  if (!limit.ok) return b;
  const at = firstCrossing(memory, limit.value.value());
  if (at === undefined || (b.exit && b.exit.afterMs <= at)) return b;
  return { ...b, exit: { kind: 'oom', code: 137, afterMs: at } };
}
