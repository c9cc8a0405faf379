/**
 * The store's behaviour, written once and run against every backend (memory.test.ts, etcd.test.ts).
 * Expectations are what etcd 3.4.23 does (see /work/shared/recipes/peers/logs and the probes
 * recorded in the comments). Tests on the shared etcd work relative to the revision they start at.
 */
import { strict as assert } from 'node:assert';
import { StoreErrors, type KeyValue, type Store, type TxnRequest } from '../../../src/engine/store';
import { Recorder, currentRevision, rejection, uniquePrefix, type Backend, type Fixture } from './fixtures';

const kv = (key: string, value: string, createRevision: number, modRevision: number, version: number, lease = 0): KeyValue => ({
  key,
  value,
  createRevision,
  modRevision,
  version,
  lease,
});

export function storeSuite(backend: Backend): void {
  const fixtures: Fixture[] = [];
  const open = async (fresh = false): Promise<Fixture> => {
    const f = fresh ? await backend.openFresh() : await backend.open();
    fixtures.push(f);
    return f;
  };

  before(function () {
    this.timeout(30_000);
    return backend.setUp();
  });
  afterEach(async () => {
    await Promise.all(fixtures.splice(0).map((f) => f.close()));
  });
  after(() => backend.tearDown());

  describe('revisions and puts', () => {
    it('starts at revision 1 and gives each write the next revision', async () => {
      const { store } = await open(true);
      assert.deepEqual(await store.range({ key: 'a' }), { header: { revision: 1 }, kvs: [], more: false, count: 0 });
      assert.deepEqual(await store.put({ key: 'a', value: '1' }), { header: { revision: 2 } });
      assert.deepEqual(await store.put({ key: 'a', value: '2' }), { header: { revision: 3 } });
      assert.deepEqual(await store.put({ key: 'b', value: 'x' }), { header: { revision: 4 } });
      assert.deepEqual((await store.range({ key: 'a' })).kvs, [kv('a', '2', 2, 3, 2)]);
      assert.deepEqual(await store.status(), { revision: 4, compactRevision: 0, keys: 2 });
    });

    it('bumps revision and version for a put of the same value', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r1 = (await store.put({ key: p + 'k', value: 'same' })).header.revision;
      const r2 = (await store.put({ key: p + 'k', value: 'same' })).header.revision;
      assert.equal(r2, r1 + 1);
      assert.deepEqual((await store.range({ key: p + 'k' })).kvs, [kv(p + 'k', 'same', r1, r2, 2)]);
    });

    it('returns the previous pair on request, and none for a new key', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const first = await store.put({ key: p + 'k', value: '1', prevKv: true });
      const r1 = first.header.revision;
      assert.deepEqual(first, { header: { revision: r1 } });
      assert.deepEqual(await store.put({ key: p + 'k', value: '2', prevKv: true }), { header: { revision: r1 + 1 }, prevKv: kv(p + 'k', '1', r1, r1, 1) });
    });

    it('keeps value or lease with ignoreValue / ignoreLease, and refuses them without a key', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const lease = await store.leaseGrant(100);
      const r1 = (await store.put({ key: p + 'k', value: 'v', lease: lease.id })).header.revision;
      const r2 = (await store.put({ key: p + 'k', value: 'w', ignoreLease: true })).header.revision;
      assert.deepEqual((await store.range({ key: p + 'k' })).kvs, [kv(p + 'k', 'w', r1, r2, 2, lease.id)]);
      const r3 = (await store.put({ key: p + 'k', value: '', ignoreValue: true, prevKv: true })).header.revision;
      // Without ignoreLease the lease is the request's: none.
      assert.deepEqual((await store.range({ key: p + 'k' })).kvs, [kv(p + 'k', 'w', r1, r3, 3)]);
      assert.equal(await rejection(store.put({ key: p + 'missing', value: '', ignoreValue: true })), StoreErrors.keyNotFound);
      assert.equal(await rejection(store.put({ key: p + 'k', value: 'x', ignoreValue: true })), StoreErrors.valueProvided);
      assert.equal(await rejection(store.put({ key: p + 'k', value: 'x', lease: lease.id, ignoreLease: true })), StoreErrors.leaseProvided);
      assert.equal(await currentRevision(store), r3);
      await store.leaseRevoke(lease.id);
    });
  });

  describe('delete', () => {
    it('bumps the revision only when something is deleted, and a re-put starts a new generation', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r1 = (await store.put({ key: p + 'a', value: '1' })).header.revision;
      await store.put({ key: p + 'a', value: '2' });
      assert.deepEqual(await store.deleteRange({ key: p + 'a' }), { header: { revision: r1 + 2 }, deleted: 1, prevKvs: [] });
      assert.deepEqual(await store.deleteRange({ key: p + 'a' }), { header: { revision: r1 + 2 }, deleted: 0, prevKvs: [] });
      assert.deepEqual(await store.deleteRange({ key: p + 'nothing/', rangeEnd: p + 'nothing0' }), { header: { revision: r1 + 2 }, deleted: 0, prevKvs: [] });
      await store.put({ key: p + 'a', value: 'new' });
      assert.deepEqual((await store.range({ key: p + 'a' })).kvs, [kv(p + 'a', 'new', r1 + 3, r1 + 3, 1)]);
    });

    it('deletes a prefix in one revision and returns the previous pairs', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = (await store.put({ key: p + '1', value: 'a' })).header.revision;
      await store.put({ key: p + '2', value: 'b' });
      await store.put({ key: p + '2x', value: 'c' });
      const end = p.slice(0, -1) + '0';
      assert.deepEqual(await store.deleteRange({ key: p, rangeEnd: end, prevKv: true }), {
        header: { revision: r + 3 },
        deleted: 3,
        prevKvs: [kv(p + '1', 'a', r, r, 1), kv(p + '2', 'b', r + 1, r + 1, 1), kv(p + '2x', 'c', r + 2, r + 2, 1)],
      });
      assert.equal((await store.range({ key: p, rangeEnd: end })).count, 0);
    });
  });

  describe('range', () => {
    async function fill(store: Store, p: string): Promise<number> {
      const first = await currentRevision(store);
      for (const [k, v] of [['c', '3'], ['a', '1'], ['e', '5'], ['b', '2'], ['d', '4']] as const) await store.put({ key: p + k, value: v });
      return first + 1;
    }

    it('limits, counts every match and says whether there is more', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = await fill(store, p);
      const end = p + 'z';
      assert.deepEqual(await store.range({ key: p, rangeEnd: end, limit: 2 }), {
        header: { revision: r + 4 },
        kvs: [kv(p + 'a', '1', r + 1, r + 1, 1), kv(p + 'b', '2', r + 3, r + 3, 1)],
        more: true,
        count: 5,
      });
      assert.equal((await store.range({ key: p, rangeEnd: end, limit: 5 })).more, false);
      assert.deepEqual((await store.range({ key: p, rangeEnd: end, limit: 1, keysOnly: true })).kvs, [kv(p + 'a', '', r + 1, r + 1, 1)]);
      assert.deepEqual(await store.range({ key: p, rangeEnd: end, countOnly: true, limit: 1 }), { header: { revision: r + 4 }, kvs: [], more: false, count: 5 });
      assert.deepEqual((await store.range({ key: p + 'b', rangeEnd: p + 'd' })).kvs.map((x) => x.key), [p + 'b', p + 'c']);
      assert.deepEqual((await store.range({ key: p + 'd', rangeEnd: '\0', limit: 2 })).kvs.map((x) => x.key), [p + 'd', p + 'e']);
    });

    it('sorts by the requested target, ascending by default for targets other than the key', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      await fill(store, p);
      const end = p + 'z';
      const keys = async (request: Parameters<Store['range']>[0]): Promise<string[]> => (await store.range(request)).kvs.map((x) => x.key.slice(p.length));
      assert.deepEqual(await keys({ key: p, rangeEnd: end, sortTarget: 'mod', sortOrder: 'descend', limit: 2 }), ['d', 'b']);
      assert.deepEqual(await keys({ key: p, rangeEnd: end, sortTarget: 'create' }), ['c', 'a', 'e', 'b', 'd']);
      assert.deepEqual(await keys({ key: p, rangeEnd: end, sortTarget: 'value', sortOrder: 'descend' }), ['e', 'd', 'c', 'b', 'a']);
      assert.deepEqual(await keys({ key: p, rangeEnd: end, sortTarget: 'key', sortOrder: 'descend' }), ['e', 'd', 'c', 'b', 'a']);
      // Ties keep key order in either direction.
      assert.deepEqual(await keys({ key: p, rangeEnd: end, sortTarget: 'version', sortOrder: 'descend' }), ['a', 'b', 'c', 'd', 'e']);
      // Without an order, a limit applies before the sort (etcd sorts only what it fetched).
      assert.deepEqual(await keys({ key: p, rangeEnd: end, sortTarget: 'mod', limit: 2 }), ['c', 'a']);
    });

    it('reads at past revisions with the current revision in the header', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = (await store.put({ key: p + 'a', value: '1' })).header.revision;
      await store.put({ key: p + 'a', value: '2' });
      await store.deleteRange({ key: p + 'a' });
      await store.put({ key: p + 'a', value: '3' });
      const at = async (revision: number): Promise<KeyValue[]> => {
        const response = await store.range({ key: p + 'a', revision });
        assert.equal(response.header.revision, r + 3);
        return response.kvs;
      };
      assert.deepEqual(await at(r - 1), []);
      assert.deepEqual(await at(r), [kv(p + 'a', '1', r, r, 1)]);
      assert.deepEqual(await at(r + 1), [kv(p + 'a', '2', r, r + 1, 2)]);
      assert.deepEqual(await at(r + 2), []);
      assert.deepEqual(await at(r + 3), [kv(p + 'a', '3', r + 3, r + 3, 1)]);
      assert.equal(await rejection(store.range({ key: p + 'a', revision: r + 4 })), StoreErrors.futureRevision);
      // etcd reads a negative revision as the current one.
      assert.deepEqual((await store.range({ key: p + 'a', revision: -7 })).kvs, [kv(p + 'a', '3', r + 3, r + 3, 1)]);
    });

    it('finds nothing when the range end is not after the key, and deletes nothing', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = (await store.put({ key: p + 'b', value: '1' })).header.revision;
      assert.deepEqual(await store.range({ key: p + 'c', rangeEnd: p + 'a' }), { header: { revision: r }, kvs: [], more: false, count: 0 });
      assert.deepEqual(await store.range({ key: p + 'b', rangeEnd: p + 'b' }), { header: { revision: r }, kvs: [], more: false, count: 0 });
      assert.deepEqual(await store.deleteRange({ key: p + 'c', rangeEnd: p + 'a' }), { header: { revision: r }, deleted: 0, prevKvs: [] });
    });
  });

  describe('txn', () => {
    it('applies all writes as one revision', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = (await store.put({ key: p + 'old', value: 'x' })).header.revision;
      const response = await store.txn({
        compare: [{ key: p + 'old', target: 'value', result: '=', value: 'x' }],
        success: [
          { put: { key: p + 't1', value: 'v1' } },
          { put: { key: p + 't2', value: 'v2' } },
          { deleteRange: { key: p + 'old' } },
          { range: { key: p + 't1' } },
        ],
        failure: [],
      });
      assert.deepEqual(response, {
        header: { revision: r + 1 },
        succeeded: true,
        responses: [
          { put: { header: { revision: r + 1 } } },
          { put: { header: { revision: r + 1 } } },
          { deleteRange: { header: { revision: r + 1 }, deleted: 1, prevKvs: [] } },
          { range: { header: { revision: r + 1 }, kvs: [kv(p + 't1', 'v1', r + 1, r + 1, 1)], more: false, count: 1 } },
        ],
      });
    });

    it('takes the failure branch when a compare fails, and bumps nothing for an empty branch or reads', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = (await store.put({ key: p + 'k', value: 'v' })).header.revision;
      const failed = await store.txn({ compare: [{ key: p + 'k', target: 'value', result: '=', value: 'nope' }], success: [{ put: { key: p + 'x', value: '1' } }], failure: [] });
      assert.deepEqual(failed, { header: { revision: r }, succeeded: false, responses: [] });
      const reads = await store.txn({ compare: [], success: [{ range: { key: p + 'k' } }], failure: [] });
      assert.deepEqual(reads.header, { revision: r });
      const otherwise = await store.txn({ compare: [{ key: p + 'k', target: 'version', result: '>', value: 5 }], success: [], failure: [{ put: { key: p + 'y', value: '1' } }] });
      assert.deepEqual(otherwise, { header: { revision: r + 1 }, succeeded: false, responses: [{ put: { header: { revision: r + 1 } } }] });
    });

    it('compares value, version, create, mod and lease with = != < >', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = (await store.put({ key: p + 'k', value: 'm' })).header.revision;
      await store.put({ key: p + 'k', value: 'm' });
      const holds = async (c: Omit<TxnRequest['compare'][number], 'key'>, key = p + 'k'): Promise<boolean> =>
        (await store.txn({ compare: [{ key, ...c }], success: [], failure: [] })).succeeded;
      assert.equal(await holds({ target: 'value', result: '=', value: 'm' }), true);
      assert.equal(await holds({ target: 'value', result: '<', value: 'n' }), true);
      assert.equal(await holds({ target: 'value', result: '>', value: 'n' }), false);
      assert.equal(await holds({ target: 'value', result: '!=', value: 'm' }), false);
      assert.equal(await holds({ target: 'version', result: '=', value: 2 }), true);
      assert.equal(await holds({ target: 'create', result: '=', value: r }), true);
      assert.equal(await holds({ target: 'mod', result: '>', value: r }), true);
      assert.equal(await holds({ target: 'mod', result: '<', value: r + 1 }), false);
      assert.equal(await holds({ target: 'lease', result: '=', value: 0 }), true);
      // A missing key compares as zeros, except that a value compare fails.
      assert.equal(await holds({ target: 'create', result: '=', value: 0 }, p + 'missing'), true);
      assert.equal(await holds({ target: 'value', result: '!=', value: 'x' }, p + 'missing'), false);
      // A range compare must hold for every key in it.
      await store.put({ key: p + 'l', value: 'z' });
      assert.equal(await holds({ target: 'value', result: '>', value: 'a', rangeEnd: p + 'm' }, p + 'k'), true);
      assert.equal(await holds({ target: 'value', result: '=', value: 'm', rangeEnd: p + 'm' }, p + 'k'), false);
    });

    it('runs nested txns in the same revision; their header revision is 0', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = await currentRevision(store);
      const response = await store.txn({
        compare: [],
        success: [
          { put: { key: p + 'a', value: '1' } },
          { txn: { compare: [{ key: p + 'a', target: 'version', result: '=', value: 0 }], success: [{ range: { key: p + 'a' } }], failure: [{ deleteRange: { key: p + 'zz' } }] } },
        ],
        failure: [],
      });
      // The nested compare saw the store before the txn: p/a did not exist.
      assert.deepEqual(response, {
        header: { revision: r + 1 },
        succeeded: true,
        responses: [
          { put: { header: { revision: r + 1 } } },
          {
            txn: {
              header: { revision: 0 },
              succeeded: true,
              responses: [{ range: { header: { revision: r + 1 }, kvs: [kv(p + 'a', '1', r + 1, r + 1, 1)], more: false, count: 1 } }],
            },
          },
        ],
      });
    });

    it('refuses a key written twice in one branch, as etcd checks it', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = await currentRevision(store);
      const put = (key: string): TxnRequest['success'][number] => ({ put: { key: p + key, value: '1' } });
      const del = (key: string): TxnRequest['success'][number] => ({ deleteRange: { key: p + key } });
      const txn = (success: TxnRequest['success'], failure: TxnRequest['failure'] = []): TxnRequest => ({ compare: [], success, failure });
      const nested = (success: TxnRequest['success'], failure: TxnRequest['failure'] = []): TxnRequest['success'][number] => ({ txn: txn(success, failure) });
      const refused = [
        txn([put('k'), put('k')]),
        txn([put('k'), del('k')]),
        txn([del('k'), put('k')]),
        txn([{ deleteRange: { key: p + 'a', rangeEnd: p + 'z' } }, put('k')]),
        txn([], [put('k'), put('k')]),
        txn([nested([put('k')]), put('k')]),
        txn([nested([del('k')]), nested([put('k')])]),
      ];
      for (const request of refused) assert.equal(await rejection(store.txn(request)), StoreErrors.duplicateKey, JSON.stringify(request));
      assert.equal(await currentRevision(store), r);
      // Then and else of a nested txn exclude each other; a later nested delete is not checked
      // against an earlier nested put; a "\0" range end overlaps nothing in etcd's check.
      await store.txn(txn([nested([put('k')], [put('k')])]));
      await store.txn(txn([nested([put('j')]), nested([del('j')])]));
      await store.txn(txn([{ deleteRange: { key: p + 'a', rangeEnd: '\0' } }, put('k')]));
      assert.equal(await currentRevision(store), r + 3);
    });

    it('limits the number of ops and refuses empty ops', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const ranges = (n: number): TxnRequest['success'] => Array.from({ length: n }, (_, i) => ({ range: { key: p + i } }));
      assert.equal((await store.txn({ compare: [], success: ranges(128), failure: ranges(128) })).responses.length, 128);
      assert.equal(await rejection(store.txn({ compare: [], success: ranges(129), failure: [] })), StoreErrors.tooManyOps);
      // A nested txn gets what its parent leaves: 128 - 100.
      const nested = { txn: { compare: [], success: ranges(29), failure: [] } };
      assert.equal(await rejection(store.txn({ compare: [], success: [...ranges(100), nested], failure: [] })), StoreErrors.tooManyOps);
      assert.equal(await rejection(store.txn({ compare: [], success: [{} as TxnRequest['success'][number]], failure: [] })), StoreErrors.keyNotFound);
    });

    it('treats an unknown compare target as equal and an unknown result as holding', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      await store.put({ key: p + 'k', value: 'v' });
      const holds = async (target: string, result: string): Promise<boolean> =>
        (await store.txn({ compare: [{ key: p + 'k', target, result, value: 5 } as TxnRequest['compare'][number]], success: [], failure: [] })).succeeded;
      assert.equal(await holds('color', '='), true);
      assert.equal(await holds('color', '!='), false);
      assert.equal(await holds('version', '>='), true);
    });

    it('checks lease and revision of the taken branch only, before writing anything', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = await currentRevision(store);
      const taken = { compare: [], success: [{ put: { key: p + 'a', value: '1' } }, { put: { key: p + 'b', value: '1', lease: 987654 } }], failure: [] };
      assert.equal(await rejection(store.txn(taken)), StoreErrors.leaseNotFound);
      assert.equal(await rejection(store.txn({ compare: [], success: [{ range: { key: p + 'a', revision: r + 5 } }], failure: [] })), StoreErrors.futureRevision);
      const notTaken = await store.txn({ compare: [], success: [], failure: [{ put: { key: p + 'b', value: '1', lease: 987654 } }] });
      assert.equal(notTaken.succeeded, true);
      assert.equal(await currentRevision(store), r);
    });
  });

  describe('compaction', () => {
    it('makes reads below it fail, keeps the compaction revision readable and refuses to go back', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = (await store.put({ key: p + 'a', value: '1' })).header.revision;
      await store.put({ key: p + 'a', value: '2' });
      await store.put({ key: p + 'a', value: '3' });
      assert.deepEqual(await store.compact(r + 1), { header: { revision: r + 2 } });
      assert.equal(await rejection(store.range({ key: p + 'a', revision: r })), StoreErrors.compacted);
      assert.deepEqual((await store.range({ key: p + 'a', revision: r + 1 })).kvs, [kv(p + 'a', '2', r, r + 1, 2)]);
      assert.equal(await rejection(store.compact(r + 1)), StoreErrors.compacted);
      assert.equal(await rejection(store.compact(r)), StoreErrors.compacted);
      assert.equal(await rejection(store.compact(r + 3)), StoreErrors.futureRevision);
      assert.equal((await store.status()).compactRevision, r + 1);
      // In a txn, a negative revision is checked against the compaction revision too.
      assert.equal(await rejection(store.txn({ compare: [], success: [{ range: { key: p + 'a', revision: -1 } }], failure: [] })), StoreErrors.compacted);
      assert.equal((await store.range({ key: p + 'a', revision: -1 })).kvs.length, 1);
    });

    it('accepts compacting at 0 once on a fresh store', async () => {
      const { store } = await open(true);
      assert.equal(await rejection(store.compact(-1)), StoreErrors.compacted);
      assert.deepEqual(await store.compact(0), { header: { revision: 1 } });
      assert.equal(await rejection(store.compact(0)), StoreErrors.compacted);
    });
  });

  describe('watch', () => {
    it('delivers puts and deletes of a key with previous values', async () => {
      const f = await open();
      const p = uniquePrefix();
      const w = await Recorder.start(f.store, { key: p + 'k', prevKv: true });
      const r = (await f.store.put({ key: p + 'k', value: '1' })).header.revision;
      await f.store.put({ key: p + 'other', value: 'x' });
      await f.store.put({ key: p + 'k', value: '2' });
      await f.store.deleteRange({ key: p + 'k' });
      await f.eventually(() => assert.equal(w.responses.length, 3));
      assert.deepEqual(w.responses, [
        { header: { revision: r }, events: [{ type: 'PUT', kv: kv(p + 'k', '1', r, r, 1) }] },
        { header: { revision: r + 2 }, events: [{ type: 'PUT', kv: kv(p + 'k', '2', r, r + 2, 2), prevKv: kv(p + 'k', '1', r, r, 1) }] },
        { header: { revision: r + 3 }, events: [{ type: 'DELETE', kv: kv(p + 'k', '', 0, r + 3, 0), prevKv: kv(p + 'k', '2', r, r + 2, 2) }] },
      ]);
    });

    it('delivers all events of one txn in one response, in order', async () => {
      const f = await open();
      const p = uniquePrefix();
      await f.store.put({ key: p + 'gone', value: 'x' });
      const w = await Recorder.start(f.store, { key: p, rangeEnd: p + '\xff' });
      const response = await f.store.txn({
        compare: [],
        success: [{ put: { key: p + 'b', value: '1' } }, { deleteRange: { key: p + 'gone' } }, { put: { key: p + 'a', value: '2' } }],
        failure: [],
      });
      const r = response.header.revision;
      await f.eventually(() => assert.equal(w.responses.length, 1));
      assert.deepEqual(w.events(), [`PUT ${p}b@${r}`, `DELETE ${p}gone@${r}`, `PUT ${p}a@${r}`]);
    });

    it('replays history from an old revision, then follows live writes', async () => {
      const f = await open();
      const p = uniquePrefix();
      const r = (await f.store.put({ key: p + 'a', value: '1' })).header.revision;
      await f.store.put({ key: p + 'b', value: '1' });
      await f.store.deleteRange({ key: p + 'a' });
      const w = await Recorder.start(f.store, { key: p, rangeEnd: p + '\xff', startRevision: r + 1 });
      await f.eventually(() => assert.equal(w.events().length, 2));
      await f.store.put({ key: p + 'c', value: '1' });
      await f.eventually(() => assert.equal(w.events().length, 3));
      assert.deepEqual(w.events(), [`PUT ${p}b@${r + 1}`, `DELETE ${p}a@${r + 2}`, `PUT ${p}c@${r + 3}`]);
      // The replay comes as one response stamped with the revision it caught up to.
      assert.deepEqual(w.responses[0]!.header, { revision: r + 2 });
    });

    it('starts a watch at a future revision there', async () => {
      const f = await open();
      const p = uniquePrefix();
      const r = await currentRevision(f.store);
      const w = await Recorder.start(f.store, { key: p + 'k', startRevision: r + 3 });
      for (let i = 0; i < 4; i++) await f.store.put({ key: p + 'k', value: String(i) });
      await f.eventually(() => assert.deepEqual(w.events(), [`PUT ${p}k@${r + 3}`, `PUT ${p}k@${r + 4}`]));
    });

    it('filters puts or deletes', async () => {
      const f = await open();
      const p = uniquePrefix();
      const noPut = await Recorder.start(f.store, { key: p, rangeEnd: p + '\xff', filters: ['noput'] });
      const noDelete = await Recorder.start(f.store, { key: p, rangeEnd: p + '\xff', filters: ['nodelete'] });
      const r = (await f.store.put({ key: p + 'a', value: '1' })).header.revision;
      await f.store.deleteRange({ key: p + 'a' });
      await f.eventually(() => {
        assert.deepEqual(noPut.events(), [`DELETE ${p}a@${r + 1}`]);
        assert.deepEqual(noDelete.events(), [`PUT ${p}a@${r}`]);
      });
    });

    it('cancels a watch that starts below the compaction revision; at it, replays its puts only', async () => {
      const f = await open();
      const p = uniquePrefix();
      const r = (await f.store.put({ key: p + 'a', value: '1' })).header.revision;
      await f.store.put({ key: p + 'b', value: '1' });
      await f.store.txn({ compare: [], success: [{ deleteRange: { key: p + 'a' } }, { put: { key: p + 'c', value: '1' } }], failure: [] });
      await f.store.put({ key: p + 'b', value: '2' });
      await f.compactApplied(r + 2);
      const below = await Recorder.start(f.store, { key: p, rangeEnd: p + '\xff', startRevision: r + 1 });
      const at = await Recorder.start(f.store, { key: p, rangeEnd: p + '\xff', startRevision: r + 2, prevKv: true });
      await f.eventually(() => {
        assert.deepEqual(below.responses, [{ header: { revision: 0 }, events: [], canceled: true, compactRevision: r + 2 }]);
        assert.equal(at.events().length, 2);
      });
      // A compaction, once applied, drops the tombstones written at the compaction revision (a's
      // deletion; before, etcd 3.4.23 would still replay it); b's previous value is read at r+2,
      // the compaction revision, which is still readable.
      assert.deepEqual(at.responses, [
        {
          header: { revision: r + 3 },
          events: [
            { type: 'PUT', kv: kv(p + 'c', '1', r + 2, r + 2, 1) },
            { type: 'PUT', kv: kv(p + 'b', '2', r + 1, r + 3, 2), prevKv: kv(p + 'b', '1', r + 1, r + 1, 1) },
          ],
        },
      ]);
    });

    it('answers a progress request with the current revision', async () => {
      const f = await open();
      const p = uniquePrefix();
      const w = await Recorder.start(f.store, { key: p + 'k' });
      const r = (await f.store.put({ key: p + 'elsewhere', value: '1' })).header.revision;
      w.requestProgress();
      await f.eventually(() => assert.deepEqual(w.responses, [{ header: { revision: r }, events: [], progressNotify: true }]));
    });

    it('notifies progress periodically while idle', async () => {
      const f = await open();
      const p = uniquePrefix();
      const idle = await Recorder.start(f.store, { key: p + 'idle', progressNotify: true });
      const plain = await Recorder.start(f.store, { key: p + 'idle' });
      await f.elapse(f.progressIntervalMs * 1.15);
      await f.eventually(() => assert.ok(idle.responses.length >= 1));
      assert.ok(idle.responses.every((r) => r.progressNotify === true && r.events.length === 0));
      await f.quiesce();
      assert.deepEqual(plain.responses, []);
    });

    it('lets Clock.settle wait until open watches have the events of a write', async () => {
      const f = await open();
      const p = uniquePrefix();
      const watches = await Promise.all(Array.from({ length: 20 }, () => Recorder.start(f.store, { key: p, rangeEnd: p + '\xff' })));
      const big = 'x'.repeat(20_000);
      const writes: Array<() => Promise<unknown>> = [
        () => f.store.put({ key: p + 'a', value: big }),
        () => f.store.txn({ compare: [], success: [{ put: { key: p + 'b', value: big } }, { deleteRange: { key: p + 'a' } }], failure: [] }),
        () => f.store.deleteRange({ key: p + 'b' }),
      ];
      let expected = 0;
      for (let round = 0; round < 5; round++) {
        for (const write of writes) {
          await write();
          await f.clock.settle();
          expected++;
          for (const w of watches) assert.equal(w.responses.length, expected);
        }
      }
    });

    it('stops delivering once canceled', async () => {
      const f = await open();
      const p = uniquePrefix();
      const w = await Recorder.start(f.store, { key: p + 'k' });
      await f.store.put({ key: p + 'k', value: '1' });
      await f.eventually(() => assert.equal(w.responses.length, 1));
      await w.cancel();
      await f.store.put({ key: p + 'k', value: '2' });
      await f.quiesce();
      assert.equal(w.responses.length, 1);
    });

    it('cancels a watch whose range end is not after its key', async () => {
      const f = await open();
      const p = uniquePrefix();
      const r = await currentRevision(f.store);
      const w = await Recorder.start(f.store, { key: p + 'b', rangeEnd: p + 'a' });
      await f.eventually(() =>
        assert.deepEqual(w.responses, [{ header: { revision: r }, events: [], canceled: true, cancelReason: 'mvcc: watcher range is empty' }]),
      );
    });

    it('treats negative start revisions as etcd 3.4.23 does', async () => {
      const f = await open(true);
      await f.store.put({ key: 'a', value: '1' });
      const minusOne = await Recorder.start(f.store, { key: 'a', startRevision: -1 });
      const minusFive = await Recorder.start(f.store, { key: 'a', startRevision: -5 });
      await f.eventually(() => assert.deepEqual(minusFive.responses, [{ header: { revision: 0 }, events: [], canceled: true, compactRevision: -1 }]));
      await f.quiesce();
      await f.store.put({ key: 'a', value: '2' });
      await f.eventually(() => assert.deepEqual(minusOne.events(), ['PUT a@3']));
    });
  });

  describe('leases', () => {
    it('grants with etcd minimum and maximum TTL rules', async () => {
      const { store } = await open();
      const r = await currentRevision(store);
      const short = await store.leaseGrant(1);
      assert.deepEqual(short, { header: { revision: r }, id: short.id, ttl: 2 });
      assert.equal((await store.leaseGrant(-5)).ttl, 2);
      assert.equal(await rejection(store.leaseGrant(9_000_000_001)), StoreErrors.leaseTtlTooLarge);
      const fixed = await store.leaseGrant(100, 424242);
      assert.equal(fixed.id, 424242);
      assert.equal(await rejection(store.leaseGrant(100, 424242)), StoreErrors.leaseExists);
      const ttl = await store.leaseTimeToLive(424242, true);
      assert.deepEqual(ttl, { header: { revision: r }, id: 424242, ttl: 99, grantedTtl: 100, keys: [] });
      assert.deepEqual(await store.leaseKeepAlive(424242), { header: { revision: r }, id: 424242, ttl: 100 });
      assert.deepEqual(await store.leaseKeepAlive(777777), { header: { revision: r }, id: 777777, ttl: 0 });
      assert.deepEqual(await store.leaseTimeToLive(777777), { header: { revision: r }, id: 777777, ttl: -1, grantedTtl: 0, keys: [] });
      assert.equal(await rejection(store.leaseRevoke(777777)), StoreErrors.leaseNotFound);
      for (const id of [short.id, 424242]) await store.leaseRevoke(id);
    });

    it('revokes: deletes the attached keys in one revision, or bumps nothing', async () => {
      const f = await open();
      const p = uniquePrefix();
      const lease = await f.store.leaseGrant(100);
      const empty = await f.store.leaseGrant(100);
      await f.store.put({ key: p + 'b', value: '1', lease: lease.id });
      await f.store.put({ key: p + 'a', value: '1', lease: lease.id });
      const moved = (await f.store.put({ key: p + 'c', value: '1', lease: lease.id })).header.revision;
      await f.store.put({ key: p + 'c', value: '2' });
      assert.deepEqual((await f.store.leaseTimeToLive(lease.id, true)).keys, [p + 'a', p + 'b']);
      const w = await Recorder.start(f.store, { key: p, rangeEnd: p + '\xff' });
      assert.deepEqual(await f.store.leaseRevoke(lease.id), { revision: moved + 2 });
      assert.deepEqual(await f.store.leaseRevoke(empty.id), { revision: moved + 2 });
      await f.eventually(() => assert.deepEqual(w.events(), [`DELETE ${p}a@${moved + 2}`, `DELETE ${p}b@${moved + 2}`]));
      assert.equal(w.responses.length, 1);
      assert.equal(await rejection(f.store.put({ key: p + 'x', value: '1', lease: lease.id })), StoreErrors.leaseNotFound);
      assert.equal(await currentRevision(f.store), moved + 2);
    });

    it('expires after its TTL, deleting its keys', async function () {
      this.timeout(10_000);
      const f = await open();
      const p = uniquePrefix();
      const lease = await f.store.leaseGrant(2);
      const r = (await f.store.put({ key: p + 'k', value: '1', lease: lease.id })).header.revision;
      await f.elapse(1000);
      assert.equal((await f.store.range({ key: p + 'k' })).count, 1);
      await f.elapse(2000);
      await f.eventually(() => undefined);
      assert.equal((await f.store.range({ key: p + 'k' })).count, 0);
      assert.deepEqual((await f.store.leaseTimeToLive(lease.id)).ttl, -1);
      assert.ok((await currentRevision(f.store)) >= r + 1);
    });
  });

  describe('bad input', () => {
    it('refuses empty keys anywhere and leaves the store unchanged', async () => {
      const { store } = await open();
      const r = await currentRevision(store);
      const refusals = [
        () => store.range({ key: '' }),
        () => store.range({ key: '', rangeEnd: '\0' }),
        () => store.put({ key: '', value: 'v' }),
        () => store.deleteRange({ key: '' }),
        () => store.txn({ compare: [{ key: '', target: 'version', result: '=', value: 0 }], success: [], failure: [] }),
        () => store.txn({ compare: [], success: [{ put: { key: '', value: 'v' } }], failure: [] }),
        () => store.txn({ compare: [], success: [], failure: [{ range: { key: '' } }] }),
      ];
      for (const refused of refusals) assert.equal(await rejection(refused()), StoreErrors.emptyKey);
      assert.equal(await currentRevision(store), r);
    });

    it('refuses requests over the raft and gRPC size limits', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      const r = await currentRevision(store);
      const limit = 1.5 * 1024 * 1024;
      assert.equal((await store.put({ key: p + 'fits', value: 'x'.repeat(limit - 100) })).header.revision, r + 1);
      assert.equal(await rejection(store.put({ key: p + 'big', value: 'x'.repeat(limit) })), StoreErrors.requestTooLarge);
      assert.equal(await rejection(store.txn({ compare: [], success: [{ put: { key: p + 'big', value: 'é'.repeat(limit / 2) } }], failure: [] })), StoreErrors.requestTooLarge);
      const huge = 'x'.repeat(2_200_000);
      const hugeSize = 2_200_000 + 7 + (p + 'huge').length;
      assert.equal(await rejection(store.put({ key: p + 'huge', value: huge })), `grpc: received message larger than max (${hugeSize} vs. 2097152)`);
      // Read-only txns skip raft: only gRPC's limit applies.
      const readOnly = await store.txn({ compare: [{ key: p + 'fits', target: 'value', result: '=', value: 'y'.repeat(limit) }], success: [], failure: [] });
      assert.equal(readOnly.succeeded, false);
      assert.equal(await currentRevision(store), r + 1);
      assert.equal((await store.range({ key: p + 'fits', keysOnly: true })).count, 1);
    });

    it('refuses future revisions and reads of compacted ones with etcd texts', async () => {
      const { store } = await open();
      const p = uniquePrefix();
      await store.put({ key: p + 'a', value: '1' });
      const r = (await store.put({ key: p + 'a', value: '2' })).header.revision;
      await store.compact(r);
      assert.equal(await rejection(store.range({ key: p + 'a', revision: r + 1 })), StoreErrors.futureRevision);
      assert.equal(await rejection(store.compact(r + 10)), StoreErrors.futureRevision);
      assert.equal(await rejection(store.range({ key: p + 'a', revision: r - 1 })), StoreErrors.compacted);
      assert.equal(await rejection(store.txn({ compare: [], success: [{ range: { key: p + 'a', revision: r - 1 } }], failure: [] })), StoreErrors.compacted);
      assert.equal(await currentRevision(store), r);
    });
  });
}
