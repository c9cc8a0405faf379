/**
 * Differential test: seeded random sequences of operations replayed against the memory store and
 * a fresh etcd 3.4, comparing every answer (revisions, pairs, counts, more, error texts) and
 * every watch's event sequence. STORE_DIFF_SEED=<seed> replays one sequence.
 */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import {
  createStore,
  prefixEnd,
  type Compare,
  type PutRequest,
  type RangeRequest,
  type RequestOp,
  type Store,
  type TxnRequest,
  type WatchRequest,
  type WatchResponse,
} from '../../../src/engine/store';
import { requireEtcd, startEtcd, type EtcdMember } from '../../support/etcd';

const OPERATIONS = 2000;
const MAX_WATCHES = 12;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const KEYS = [
  ...Array.from({ length: 8 }, (_, i) => `a/${i}`),
  ...Array.from({ length: 6 }, (_, i) => `b/${i}`),
  ...Array.from({ length: 4 }, (_, i) => `b/${i}/x`),
  'a',
  'b',
  'c',
  'é',
  '\uffff',
  '😀',
];
const PREFIXES = ['a/', 'b/', 'b/1', 'c', 'a', 'z/'];

class Generator {
  constructor(private readonly random: Random) {}

  chance(p: number): boolean {
    return this.random.next() < p;
  }

  key(): string {
    return this.random.pick(KEYS);
  }

  value(): string {
    if (this.chance(0.1)) return '';
    if (this.chance(0.05)) return this.random.pick(['é', '😀x', '\uffff']);
    return this.random.string(1 + this.random.int(6));
  }

  /** A single key, a prefix, an explicit range (sometimes inverted) or "from key". */
  range(): { key: string; rangeEnd?: string } {
    const roll = this.random.int(10);
    if (roll < 4) return { key: this.key() };
    if (roll < 7) {
      const p = this.random.pick(PREFIXES);
      return { key: p, rangeEnd: prefixEnd(p) };
    }
    if (roll < 9) return { key: this.key(), rangeEnd: this.key() };
    return { key: this.key(), rangeEnd: '\0' };
  }

  revision(current: number, compacted: number): number {
    const roll = this.random.int(10);
    if (roll < 4) return 0;
    if (roll < 5) return -1 - this.random.int(3);
    return Math.max(1, compacted - 2) + this.random.int(current - Math.max(1, compacted - 2) + 3);
  }

  /** In a txn only key order is asked for (see comparable()). */
  rangeRequest(current: number, compacted: number, anySort = true): RangeRequest {
    const r: RangeRequest = { ...this.range() };
    if (this.chance(0.3)) r.limit = this.random.int(4);
    if (this.chance(0.3)) r.revision = this.revision(current, compacted);
    if (this.chance(0.1)) r.countOnly = true;
    if (this.chance(0.15)) r.keysOnly = true;
    if (this.chance(0.2)) r.sortTarget = anySort ? this.random.pick(['key', 'version', 'create', 'mod', 'value'] as const) : 'key';
    if (this.chance(0.2)) r.sortOrder = this.random.pick(['none', 'ascend', 'descend'] as const);
    return r;
  }

  compare(current: number): Compare {
    const target = this.chance(0.03) ? ('color' as Compare['target']) : this.random.pick(['value', 'version', 'create', 'mod', 'lease'] as const);
    const result = this.chance(0.03) ? ('>=' as Compare['result']) : this.random.pick(['=', '!=', '<', '>'] as const);
    const value = target === 'value' ? this.value() : this.random.int(Math.max(4, current + 2));
    const c: Compare = { key: this.key(), target, result, value };
    if (this.chance(0.15)) c.rangeEnd = prefixEnd(this.random.pick(PREFIXES));
    return c;
  }

  putRequest(leases: number[]): PutRequest {
    const put: PutRequest = { key: this.key(), value: this.value() };
    if (this.chance(0.2)) put.prevKv = true;
    if (this.chance(0.1) && leases.length > 0) put.lease = this.random.pick(leases);
    return put;
  }

  op(current: number, compacted: number, leases: number[], depth: number): RequestOp {
    const roll = this.random.int(10);
    if (roll < 4) return { put: this.putRequest(leases) };
    if (roll < 6) return { deleteRange: { ...this.range(), prevKv: this.chance(0.3) } };
    if (roll < 9 || depth > 1) return { range: this.rangeRequest(current, compacted, false) };
    return { txn: this.txn(current, compacted, leases, depth + 1) };
  }

  txn(current: number, compacted: number, leases: number[], depth = 0): TxnRequest {
    const ops = (): RequestOp[] => Array.from({ length: this.random.int(4) }, () => this.op(current, compacted, leases, depth));
    return { compare: Array.from({ length: this.random.int(3) }, () => this.compare(current)), success: ops(), failure: ops() };
  }
}

interface Side {
  store: Store;
  clock: Clock;
  watches: WatchResponse[][];
}

/** What is compared: the answer, or the error text. */
async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Go sorts more than 12 pairs with pdqsort, which orders ties its own way; then only the
 * sequence of sort-target values is comparable.
 */
function comparable(request: RangeRequest, response: unknown): unknown {
  const target = request.sortTarget ?? 'key';
  const r = response as { kvs?: Array<Record<string, unknown>>; count?: number };
  if (target === 'key' || !r.kvs || (r.count ?? 0) <= 12) return response;
  const field = { version: 'version', create: 'createRevision', mod: 'modRevision', value: 'value' }[target];
  return { ...r, kvs: r.kvs.map((kv) => kv[field]) };
}

const flatten = (responses: WatchResponse[]): unknown[] =>
  responses.flatMap((r): unknown[] => (r.canceled ? [{ canceled: true, compactRevision: r.compactRevision, cancelReason: r.cancelReason }] : r.events));

async function runSequence(seed: string, member: EtcdMember): Promise<void> {
  const random = new Random(seed);
  const gen = new Generator(random);
  const side = (backend: 'memory' | 'etcd'): Side => {
    const clock = new Clock(0);
    return { store: createStore({ backend, clock, endpoints: [member.endpoint] }), clock, watches: [] };
  };
  const memory = side('memory');
  const etcd = side('etcd');
  const sides = [memory, etcd];
  const leases: number[] = [];
  const watches: Array<() => Promise<void>> = [];
  let current = 1;
  let compacted = 0;
  let watchCount = 0;

  const both = async (what: string, run: (store: Store) => Promise<unknown>, view: (r: unknown) => unknown = (r) => r): Promise<unknown> => {
    const m = view(await outcome(() => run(memory.store)));
    const e = view(await outcome(() => run(etcd.store)));
    assert.deepEqual(m, e, `${seed}: ${what}`);
    await memory.clock.advance(0);
    return m;
  };

  try {
    for (let i = 0; i < OPERATIONS; i++) {
      const roll = random.int(100);
      let what: string;
      if (roll < 33) {
        const request = gen.putRequest(leases);
        if (gen.chance(0.05)) request.ignoreValue = true;
        if (gen.chance(0.05)) request.ignoreLease = true;
        what = `#${i} put ${JSON.stringify(request)}`;
        await both(what, (s) => s.put(request));
      } else if (roll < 43) {
        const request = { ...gen.range(), prevKv: gen.chance(0.3) };
        what = `#${i} deleteRange ${JSON.stringify(request)}`;
        await both(what, (s) => s.deleteRange(request));
      } else if (roll < 65) {
        const request = gen.rangeRequest(current, compacted);
        what = `#${i} range ${JSON.stringify(request)}`;
        await both(what, (s) => s.range(request), (r) => comparable(request, r));
      } else if (roll < 85) {
        const request = gen.txn(current, compacted, leases);
        if (gen.chance(0.15) && request.success.length > 0) request.success.push(structuredClone(request.success[0]!));
        what = `#${i} txn ${JSON.stringify(request)}`;
        await both(what, (s) => s.txn(request));
      } else if (roll < 87) {
        const revision = Math.max(-1, compacted - 1) + random.int(current - compacted + 3);
        what = `#${i} compact ${revision}`;
        await both(what, (s) => s.compact(revision));
      } else if (roll < 89 && watchCount < MAX_WATCHES) {
        watchCount++;
        const request: WatchRequest = { ...gen.range(), startRevision: gen.chance(0.2) ? 0 : Math.max(1, compacted - 2) + random.int(current - Math.max(1, compacted - 2) + 5) };
        if (gen.chance(0.5)) request.prevKv = true;
        if (gen.chance(0.2)) request.filters = [random.pick(['noput', 'nodelete'] as const)];
        what = `#${i} watch ${JSON.stringify(request)}`;
        const index = memory.watches.length;
        for (const s of sides) {
          s.watches.push([]);
          const watch = s.store.watch(request, (r) => void s.watches[index]!.push(r));
          await watch.ready;
          watches.push(() => watch.cancel());
        }
        // etcd catches a watcher up from history within 100 ms (the memory store at the next
        // clock task); let it, before a compaction could overtake it.
        await memory.clock.advance(0);
        const replayed = flatten(memory.watches[index]!).length;
        const deadline = Date.now() + 3000;
        while (flatten(etcd.watches[index]!).length < replayed && Date.now() < deadline) {
          await etcd.clock.settle();
          await sleep(10);
        }
        if (replayed === 0) await sleep(300);
      } else if (roll < 95) {
        const kind = random.int(4);
        const id = leases.length > 0 && gen.chance(0.9) ? random.pick(leases) : 4242;
        if (kind === 0) {
          what = `#${i} leaseGrant`;
          const granted = (await both(what, (s) => s.leaseGrant(1000))) as { id?: number };
          if (granted.id) leases.push(granted.id);
        } else if (kind === 1) {
          what = `#${i} leaseRevoke ${id}`;
          await both(what, (s) => s.leaseRevoke(id));
          if (leases.includes(id)) leases.splice(leases.indexOf(id), 1);
        } else if (kind === 2) {
          what = `#${i} leaseTimeToLive ${id}`;
          // Remaining seconds follow each backend's clock; the rest must agree.
          await both(what, (s) => s.leaseTimeToLive(id, true), (r) => ({ ...(r as object), ttl: (r as { ttl?: number }).ttl! > 0 }));
        } else {
          what = `#${i} leaseKeepAlive ${id}`;
          await both(what, (s) => s.leaseKeepAlive(id));
        }
      } else if (roll < 97) {
        what = `#${i} status`;
        await both(what, (s) => s.status());
      } else {
        const bad = random.int(4);
        what = `#${i} bad input ${bad}`;
        if (bad === 0) await both(what, (s) => s.put({ key: '', value: 'v' }));
        else if (bad === 1) await both(what, (s) => s.range({ key: '', rangeEnd: '\0' }));
        else if (bad === 2) await both(what, (s) => s.put({ key: gen.key(), value: 'x'.repeat(1_600_000) }));
        else await both(what, (s) => s.txn({ compare: [{ key: '', target: 'version', result: '=', value: 0 }], success: [], failure: [] }));
      }
      const status = (await memory.store.status());
      current = status.revision;
      compacted = status.compactRevision;
    }

    // Every watch saw the same events (and cancellations) on both backends.
    await memory.clock.settle();
    const deadline = Date.now() + 5000;
    for (let w = 0; w < memory.watches.length; w++) {
      const expected = flatten(memory.watches[w]!);
      while (flatten(etcd.watches[w]!).length < expected.length && Date.now() < deadline) {
        await etcd.clock.settle();
        await sleep(20);
      }
      assert.deepEqual(flatten(etcd.watches[w]!), expected, `${seed}: watch ${w}`);
    }
  } finally {
    await Promise.all(watches.map((cancel) => cancel()));
    await Promise.all(sides.map((s) => s.store.close()));
  }
}

describe('store differential: memory vs a fresh etcd 3.4', function () {
  this.timeout(60_000);
  const seeds = process.env.STORE_DIFF_SEED ? [process.env.STORE_DIFF_SEED] : ['differential-1', 'differential-2'];
  before(function () {
    requireEtcd(this);
  });
  for (const seed of seeds) {
    it(`agrees on ${OPERATIONS} random operations (seed ${seed})`, async () => {
      const member = await startEtcd();
      try {
        await runSequence(seed, member);
      } finally {
        await member.stop();
      }
    });
  }
});
