/**
 * The work a cluster run does, counted in units that do not depend on the machine's load: API
 * requests by verb and response code, controller reconciles by trigger and outcome, informer
 * events, store revisions, clock timers set and fired (by what they are for), the distinct
 * virtual instants timers fired at, the clock's yields to the host, Raft messages delivered and
 * the entries each member applied. `npm run bench -- cluster --only deployments --counts` prints
 * them per etcd mode beside the wall times: two runs with the same seed give the same counts, so
 * they show where a mode does more work even on a saturated machine.
 *
 * Counting hooks the clock's and the reflector's prototypes (only while a count is running) and
 * subscribes to the cluster's trace and its etcd message stream: the engine itself is unchanged.
 */
import { Clock, type TimerCallback, type TimerOptions } from '../src/engine/clock';
import { Reflector } from '../src/engine/client/informer/reflector';
import type { Cluster } from '../src/engine/cluster';
import { EtcdClient } from '../src/engine/store/etcdserver';
import type { RangeRequest, TxnRequest } from '../src/engine/store/types';
import type { TraceRecord } from '../src/engine/trace/types';

type Counts = Map<string, number>;

/** A timer label without its instance parts: "etcd MsgApp etcd-0 -> etcd-1" is "etcd MsgApp". */
function labelClass(label: string): string {
  const arrow = label.indexOf(' -> ');
  const base = arrow >= 0 ? label.slice(0, arrow) : label;
  return base
    .replace(/\betcd-\d+\b/g, 'etcd-N')
    .replace(/\bnode-\d+\b/g, 'node-N')
    .replace(/\([^)]*\)/g, '(...)')
    .replace(/\d+/g, 'N')
    .replace(/ etcd-N$/, '')
    .replace(/^etcd-N /, 'member ');
}

export interface WorkCounter {
  /** Counts this cluster's trace and etcd messages from now on (timers and informers count from install). */
  attach(cluster: Cluster): void;
  /** Counts one yield of the clock to the host (the bench's ClockHost calls it). */
  yielded(): void;
  /** The counts so far (createCluster's, before attach), starting again from zero. */
  phase(): Record<string, number>;
  /** Stops counting and returns the counts, sorted by name. */
  finish(cluster: Cluster): Record<string, number>;
}

export function installWorkCounter(): WorkCounter {
  const counts: Counts = new Map();
  const inc = (k: string, n = 1): void => {
    counts.set(k, (counts.get(k) ?? 0) + n);
  };
  const unsubscribe: (() => void)[] = [];
  const clockProto = Clock.prototype as unknown as { setTimer(this: Clock, delay: number, fn: TimerCallback, options?: TimerOptions): unknown };
  const setTimer = clockProto.setTimer;
  let lastInstant = Number.NaN;
  clockProto.setTimer = function (this: Clock, delay: number, fn: TimerCallback, options?: TimerOptions) {
    const cls = labelClass(options?.label ?? 'timer');
    inc('timers.set');
    const clock = this;
    return setTimer.call(
      this,
      delay,
      () => {
        inc('timers.fired');
        inc(`timer: ${cls}`);
        const now = clock.now();
        if (now !== lastInstant) {
          lastInstant = now;
          inc('instants');
        }
        return fn();
      },
      options,
    );
  };
  const reflectorProto = Reflector.prototype as unknown as { onEvent(cycle: number, event: { type: string }): void };
  const onEvent = reflectorProto.onEvent;
  reflectorProto.onEvent = function (this: unknown, cycle: number, event: { type: string }) {
    inc('informer.events');
    return onEvent.call(this, cycle, event);
  };
  // kube-apiserver's requests to etcd, by kind and resource ("/registry/pods/..." is pods).
  const resourceOf = (key: string): string => key.split('/')[2] ?? key;
  const clientProto = EtcdClient.prototype as unknown as { range(r: RangeRequest): Promise<unknown>; txn(r: TxnRequest): Promise<unknown> };
  const range = clientProto.range;
  const txn = clientProto.txn;
  clientProto.range = function (this: EtcdClient, r: RangeRequest) {
    inc('etcd.requests');
    inc(`etcd: range${r.rangeEnd ? ' (list)' : ''} ${resourceOf(r.key)}${r.serializable ? ' serializable' : ''}`);
    return range.call(this, r);
  };
  clientProto.txn = function (this: EtcdClient, r: TxnRequest) {
    inc('etcd.requests');
    const op = r.success[0] ?? r.failure[0];
    const key = op ? ('put' in op ? op.put.key : 'deleteRange' in op ? op.deleteRange.key : 'range' in op ? op.range.key : '') : '';
    inc(`etcd: txn ${op ? Object.keys(op)[0] : ''} ${resourceOf(key)}`);
    return txn.call(this, r);
  };
  let appliedAtStart = 0;
  const applied = (cluster: Cluster): number => (cluster.etcd ? cluster.etcd.members.reduce((n, m) => n + m.mvcc.consistentIndex, 0) : 0);
  return {
    attach(cluster) {
      appliedAtStart = applied(cluster);
      unsubscribe.push(
        cluster.trace.subscribe((r: TraceRecord) => {
          switch (r.type) {
            case 'api.request': {
              const sub = r.subresource ? `/${r.subresource}` : '';
              inc('api.requests');
              inc(`api: ${r.verb} ${r.resource}${sub}`);
              if (r.code >= 400) inc(`api code ${r.code}`);
              break;
            }
            case 'controller.reconcile':
              inc('reconciles');
              inc(`reconcile: ${r.controller} ${r.trigger} ${r.outcome}`);
              break;
            case 'store.revision':
              inc('revisions');
              break;
            default:
              break;
          }
        }),
      );
      if (cluster.etcd) {
        unsubscribe.push(
          cluster.etcd.messages.subscribe((r) => {
            if (r.type !== 'etcd.message' || r.event !== 'delivered') return;
            inc('raft.messages');
            inc(`raft: ${r.msgType}`);
          }),
        );
      }
    },
    yielded() {
      inc('clock.yields');
    },
    phase() {
      const out = sorted(counts);
      counts.clear();
      return out;
    },
    finish(cluster) {
      for (const u of unsubscribe) u();
      clockProto.setTimer = setTimer;
      reflectorProto.onEvent = onEvent;
      clientProto.range = range;
      clientProto.txn = txn;
      inc('member.applies', applied(cluster) - appliedAtStart);
      return sorted(counts);
    },
  };
}

function sorted(counts: Counts): Record<string, number> {
  return Object.fromEntries([...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
