/**
 * How the store suites reach each backend. The same tests run against the memory store (virtual
 * time) and a real etcd 3.4 (real time); a Fixture hides the difference in how time passes and
 * how watch traffic arrives.
 */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { createStore, type BackendName, type SimulatedEtcdOptions, type Store, type WatchListener, type WatchRequest, type WatchResponse } from '../../../src/engine/store';
import { PROGRESS_NOTIFY_INTERVAL_MS } from '../../../src/engine/store';
import { startEtcd, type EtcdMember } from '../../support/etcd';

export interface Fixture {
  readonly store: Store;
  readonly clock: Clock;
  /** The interval of periodic progress notifications on this backend. */
  readonly progressIntervalMs: number;
  /** Lets `ms` pass: virtual time for memory, real time for etcd. */
  elapse(ms: number): Promise<void>;
  /** Retries `check` while watch traffic arrives (at once for memory, within 10 s for etcd: a loaded machine delays delivery). */
  eventually(check: () => void): Promise<void>;
  /** Lets in-flight traffic arrive, so that a test can check that nothing more came. */
  quiesce(): Promise<void>;
  /**
   * Compacts at `revision` and returns once the compaction is applied to the database. etcd
   * answers a Compact (as kube-apiserver sends it) before it removes the old revisions in the
   * background; until then, a watch replaying history still sees the tombstones written at the
   * compaction revision. The memory store compacts at once.
   */
  compactApplied(revision: number): Promise<void>;
  close(): Promise<void>;
}

export interface Backend {
  readonly name: BackendName;
  /** A store on shared state (earlier tests' keys and compactions are there). */
  open(): Promise<Fixture>;
  /** A store on a brand-new member: revision 1, never compacted. */
  openFresh(): Promise<Fixture>;
  /** Starts what the backend needs (an etcd member); the suite calls it in before(). */
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A store whose requests move the clock until they are answered: for a cluster with a latency
 * model, where a write takes virtual time and nothing else advances it while a test awaits.
 */
const REQUESTS = new Set(['range', 'put', 'deleteRange', 'txn', 'compact', 'leaseGrant', 'leaseRevoke', 'leaseKeepAlive', 'leaseTimeToLive', 'status']);

function driven(store: Store, clock: Clock): Store {
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== 'function') return value;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      return REQUESTS.has(String(prop)) ? (...args: unknown[]) => clock.until(fn(...args) as Promise<unknown>) : fn;
    },
  });
}

/** The simulated etcd: one instant member by default; several, or with the latency model, when given. */
export function memoryBackend(etcd?: SimulatedEtcdOptions): Backend {
  const open = async (): Promise<Fixture> => {
    const clock = new Clock(0);
    const raw = createStore({ backend: 'memory', clock, etcd });
    const store = etcd?.latency && etcd.latency !== 'instant' ? driven(raw, clock) : raw;
    return {
      store,
      clock,
      progressIntervalMs: PROGRESS_NOTIFY_INTERVAL_MS,
      elapse: async (ms) => void (await clock.advance(ms)),
      eventually: async (check) => {
        await clock.settle();
        check();
      },
      quiesce: async () => void (await clock.settle()),
      compactApplied: async (revision) => void (await store.compact(revision)),
      close: () => store.close(),
    };
  };
  return { name: 'memory', open, openFresh: open, setUp: async () => {}, tearDown: async () => {} };
}

/** etcd's progress interval in the shared member: short, so that the suite can wait for it. */
const ETCD_PROGRESS_INTERVAL = 1000;

export function etcdBackend(): Backend {
  let shared: EtcdMember | undefined;
  const members: EtcdMember[] = [];
  const connect = async (member: EtcdMember): Promise<Fixture> => {
    const clock = new Clock(0);
    const store = createStore({ backend: 'etcd', clock, endpoints: [member.endpoint] });
    const settle = async (): Promise<void> => void (await clock.settle());
    return {
      store,
      clock,
      progressIntervalMs: ETCD_PROGRESS_INTERVAL,
      elapse: (ms) => sleep(ms),
      eventually: async (check) => {
        const deadline = Date.now() + 10_000;
        for (;;) {
          await settle();
          try {
            check();
            return;
          } catch (err) {
            if (Date.now() > deadline) throw err;
          }
          await sleep(10);
        }
      },
      // etcd catches up watchers from history every 100 ms.
      quiesce: async () => {
        await settle();
        await sleep(250);
        await settle();
      },
      // etcd's `physical` flag: the answer waits for the background compaction to finish.
      compactApplied: async (revision) => {
        const { Etcd3 } = await import('etcd3');
        const client = new Etcd3({ hosts: [member.endpoint] });
        try {
          await client.kv.compact({ revision, physical: true });
        } finally {
          client.close();
        }
      },
      close: () => store.close(),
    };
  };
  const start = async (): Promise<EtcdMember> => {
    const member = await startEtcd({ progressNotifyInterval: `${ETCD_PROGRESS_INTERVAL}ms` });
    members.push(member);
    return member;
  };
  return {
    name: 'etcd',
    open: () => connect(shared!),
    openFresh: async () => connect(await start()),
    setUp: async () => {
      shared = await start();
    },
    tearDown: async () => {
      await Promise.all(members.splice(0).map((m) => m.stop()));
    },
  };
}

/** A watch whose responses are collected; `events()` flattens them as "TYPE key@rev". */
export class Recorder {
  readonly responses: WatchResponse[] = [];
  readonly listener: WatchListener = (r) => void this.responses.push(r);

  static async start(store: Store, request: WatchRequest): Promise<Recorder & { cancel(): Promise<void>; requestProgress(): void }> {
    const recorder = new Recorder();
    const watch = store.watch(request, recorder.listener);
    await watch.ready;
    return Object.assign(recorder, { cancel: () => watch.cancel(), requestProgress: () => watch.requestProgress() });
  }

  events(): string[] {
    return this.responses.flatMap((r) => r.events.map((e) => `${e.type} ${e.kv.key}@${e.kv.modRevision}`));
  }

  eventResponses(): WatchResponse[] {
    return this.responses.filter((r) => r.events.length > 0);
  }
}

/** The rejection's message (and that it is a rejection). */
export async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof Error);
    return err.message;
  }
  assert.fail('expected the request to be refused');
}

let prefixes = 0;
/** A key prefix no other test uses, for tests that share an etcd. */
export function uniquePrefix(): string {
  return `/t${++prefixes}-${process.pid}/`;
}

export async function currentRevision(store: Store): Promise<number> {
  return (await store.range({ key: '/revision-probe' })).header.revision;
}
