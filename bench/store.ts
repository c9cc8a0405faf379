/**
 * Store benchmark: the memory backend and a real etcd 3.4 (a throwaway member on local disk,
 * fsync on, started here) run the same operation sequences in one run; each comparable bench
 * also gets a ratio record. Memory-only records measure the heap of the memory backend.
 * `npm run bench -- store [--json] [--quick]` (--quick: a tenth of the sizes).
 */
import { tmpdir } from 'node:os';
import { Clock } from '../src/engine/clock';
import { Random } from '../src/engine/random';
import { createStore, prefixEnd, type BackendName, type Store } from '../src/engine/store';
import { compareUnits } from '../src/engine/store/keys';
import { BPlusTree } from '../src/engine/store/memory/btree';
import { etcdMissingReason, startEtcd, type EtcdMember } from '../test/support/etcd';
import { Reporter, gc, heapUsedBytes, nowMs, type BenchSuite } from './report';

const PREFIX = '/registry/configmaps/bench/';
const key = (i: number): string => `${PREFIX}cm-${i.toString().padStart(7, '0')}`;
/** A 1 KiB JSON string per key, made as the API server makes its values. */
const value = (i: number, round = 0): string => {
  const object = (pad: string): object => ({ kind: 'ConfigMap', metadata: { name: `cm-${i}`, round }, data: { pad } });
  return JSON.stringify(object('x'.repeat(1024 - JSON.stringify(object('')).length)));
};

interface Sizes {
  puts: number;
  gets: number;
  ranges: number;
  txns: number;
  fanoutWatchers: number;
  fanoutPuts: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const suite: BenchSuite = async (args) => {
  const report = Reporter.fromArgs(args);
  const scale = args.includes('--quick') ? 0.1 : 1;
  const memorySizes: Sizes = { puts: 200_000 * scale, gets: 1_000_000 * scale, ranges: 2_000 * scale, txns: 100_000 * scale, fanoutWatchers: 1000, fanoutPuts: 100 };
  const etcdSizes: Sizes = { puts: 2_000 * scale, gets: 2_000 * scale, ranges: 100 * scale, txns: 1_000 * scale, fanoutWatchers: 1000, fanoutPuts: 10 };

  const missing = etcdMissingReason();
  let member: EtcdMember | undefined;
  if (missing) report.note(`etcd not measured: ${missing}`);
  else member = await startEtcd({ dataRoot: tmpdir() });

  try {
    const results = new Map<string, Map<BackendName, number>>();
    const record = (bench: string, backend: BackendName, ops: number, ms: number, extra: Record<string, number> = {}): void => {
      const opsPerS = Math.round((ops / ms) * 1000);
      report.record({ bench, backend, ops_per_s: opsPerS, ops, ms: Math.round(ms * 10) / 10, ...extra });
      if (!results.has(bench)) results.set(bench, new Map());
      results.get(bench)!.set(backend, opsPerS);
    };
    const backends: Array<[BackendName, Sizes]> = [['memory', memorySizes]];
    if (member) backends.push(['etcd', etcdSizes]);
    for (const [backend, sizes] of backends) {
      const clock = new Clock(0);
      const store = createStore({ backend, clock, endpoints: member ? [member.endpoint] : undefined });
      try {
        await measure(store, clock, backend, sizes, record, report);
      } finally {
        await store.close();
      }
    }
    for (const [bench, byBackend] of results) {
      const m = byBackend.get('memory');
      const e = byBackend.get('etcd');
      if (m !== undefined && e !== undefined) report.record({ bench, backend: 'ratio', memory_over_etcd: Math.round((m / e) * 10) / 10 });
    }
    await heap(report, scale);
    btree(report, scale);
  } finally {
    await member?.stop();
  }
};

type RecordFn = (bench: string, backend: BackendName, ops: number, ms: number, extra?: Record<string, number>) => void;

async function measure(store: Store, clock: Clock, backend: BackendName, sizes: Sizes, record: RecordFn, report: Reporter): Promise<void> {
  report.note(`${backend}: ${sizes.puts} sequential puts...`);
  let started = nowMs();
  for (let i = 0; i < sizes.puts; i++) await store.put({ key: key(i), value: value(i) });
  record('put-sequential', backend, sizes.puts, nowMs() - started, { value_bytes: value(0).length });

  const random = new Random('store-bench');
  const picks = Array.from({ length: sizes.gets }, () => key(random.int(sizes.puts)));
  started = nowMs();
  for (const k of picks) await store.range({ key: k });
  record('get', backend, sizes.gets, nowMs() - started);

  // A prefix holding exactly 1000 keys (written ten txns at a time, not measured).
  const rangePrefix = '/registry/pods/range/';
  for (let batch = 0; batch < 10; batch++) {
    const success = Array.from({ length: 100 }, (_, j) => ({ put: { key: `${rangePrefix}pod-${batch * 100 + j}`, value: value(j) } }));
    await store.txn({ compare: [], success, failure: [] });
  }
  const count = (await store.range({ key: rangePrefix, rangeEnd: prefixEnd(rangePrefix), countOnly: true })).count;
  started = nowMs();
  for (let i = 0; i < sizes.ranges; i++) await store.range({ key: rangePrefix, rangeEnd: prefixEnd(rangePrefix) });
  record('range-prefix-1000', backend, sizes.ranges, nowMs() - started, { keys_per_range: count });

  // The API server's optimistic update: compare the key's mod revision, then put.
  started = nowMs();
  let modRevision = (await store.range({ key: key(0) })).kvs[0]!.modRevision;
  for (let i = 0; i < sizes.txns; i++) {
    const r = await store.txn({
      compare: [{ key: key(0), target: 'mod', result: '=', value: modRevision }],
      success: [{ put: { key: key(0), value: value(0, i) } }],
      failure: [{ range: { key: key(0) } }],
    });
    modRevision = r.header.revision;
  }
  record('txn', backend, sizes.txns, nowMs() - started);

  report.note(`${backend}: watch fan-out to ${sizes.fanoutWatchers} watchers...`);
  const fanPrefix = '/registry/events/fanout/';
  let delivered = 0;
  const watches = [];
  for (let i = 0; i < sizes.fanoutWatchers; i++) {
    const watch = store.watch({ key: fanPrefix, rangeEnd: prefixEnd(fanPrefix) }, (r) => void (delivered += r.events.length));
    watches.push(watch);
  }
  await Promise.all(watches.map((w) => w.ready));
  const expected = sizes.fanoutWatchers * sizes.fanoutPuts;
  started = nowMs();
  for (let i = 0; i < sizes.fanoutPuts; i++) await store.put({ key: `${fanPrefix}e-${i}`, value: value(i) });
  for (;;) {
    await clock.settle();
    if (delivered >= expected) break;
    await sleep(1);
  }
  record('watch-fanout-1000', backend, expected, nowMs() - started, { watchers: sizes.fanoutWatchers, puts: sizes.fanoutPuts });
  await Promise.all(watches.map((w) => w.cancel()));
}

/** Heap of the memory backend: per 100k keys, and a million keys of 1 KiB. */
async function heap(report: Reporter, scale: number): Promise<void> {
  const total = 1_000_000 * scale;
  report.note(`memory: loading ${total} keys of 1 KiB for the heap measurement...`);
  gc();
  const base = heapUsedBytes();
  const clock = new Clock(0);
  const store = createStore({ backend: 'memory', clock });
  const started = nowMs();
  for (let i = 0; i < total; i++) {
    await store.put({ key: key(i), value: value(i) });
    if (i + 1 === 100_000 * scale) {
      gc();
      const bytes = heapUsedBytes() - base;
      report.record({ bench: 'heap-per-100k-keys', backend: 'memory', keys: 100_000 * scale, heap_bytes: bytes, bytes_per_key: Math.round(bytes / (100_000 * scale)) });
    }
  }
  const ms = nowMs() - started;
  gc();
  const bytes = heapUsedBytes() - base;
  const gib = bytes / 2 ** 30;
  report.record({
    bench: 'heap-1m-keys-1kib',
    backend: 'memory',
    keys: total,
    ops_per_s: Math.round((total / ms) * 1000),
    heap_bytes: bytes,
    heap_gib: Math.round(gib * 1000) / 1000,
    bytes_per_key: Math.round(bytes / total),
    under_2gib: gib < 2,
  });
  const random = new Random('heap-get');
  const gets = 500_000 * scale;
  const getsStarted = nowMs();
  for (let i = 0; i < gets; i++) await store.range({ key: key(random.int(total)) });
  report.record({ bench: 'get-1m-keys', backend: 'memory', ops_per_s: Math.round((gets / (nowMs() - getsStarted)) * 1000), ops: gets });
  await store.close();
}

export default suite;

/** The memory backend's key index alone: 1M registry-shaped keys set into a B+tree, then read back. */
function btree(report: Reporter, scale: number): void {
  const total = 1_000_000 * scale;
  const keyOf = (i: number): string => `/registry/pods/ns-${i % 97}/pod-${i}`;
  const tree = new BPlusTree<number>(compareUnits);
  let started = nowMs();
  for (let i = 0; i < total; i++) tree.set(keyOf(i), i);
  const insertMs = nowMs() - started;
  if (tree.size !== total) throw new Error(`btree holds ${tree.size} keys, not ${total}`);
  started = nowMs();
  for (let i = 0; i < total; i++) tree.get(keyOf(i));
  const getMs = nowMs() - started;
  report.record({ bench: 'btree-insert', backend: 'memory', keys: total, ms: Math.round(insertMs), ops_per_s: Math.round((total / insertMs) * 1000), target_ms: 5000 * scale });
  report.record({ bench: 'btree-get', backend: 'memory', keys: total, ms: Math.round(getMs), ops_per_s: Math.round((total / getMs) * 1000) });
}
