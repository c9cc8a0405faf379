/**
 * etcd's v3 gRPC API over the simulated members (src/etcd-grpc), spoken to by real gRPC clients:
 * the etcd3 npm package (as an application would) and raw @grpc/grpc-js stubs from etcd's own
 * rpc.proto (to see status codes and texts). Three members under the latency model; requests
 * drive the virtual clock, each member answers on its own port as itself.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { Etcd3 } from 'etcd3';
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import { createSimulatedEtcd, type EtcdClient } from '../../../src/engine/store/etcdserver';
import { startEtcdEndpoints, type EtcdEndpoints } from '../../../src/etcd-grpc/server';
import { decimalId } from '../../../src/engine/store/etcdserver/server';

const PASSWORD = 'a-test-password-of-some-length';
const ROOT = join(__dirname, '..', '..', '..', 'third_party', 'etcd');

type Stub = grpc.Client & Record<string, (...args: unknown[]) => unknown>;
interface Stubs {
  kv: Stub;
  maintenance: Stub;
  cluster: Stub;
  auth: Stub;
  watch: Stub;
  lease: Stub;
}

function stubs(address: string): Stubs {
  const def = protoLoader.loadSync('etcd/etcdserver/etcdserverpb/rpc.proto', { includeDirs: [join(ROOT, 'proto'), join(ROOT, 'stubs')], keepCase: true, longs: String, enums: Number, defaults: true, oneofs: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { etcdserverpb: Record<string, new (a: string, c: grpc.ChannelCredentials) => Stub> };
  const make = (name: string): Stub => new pkg.etcdserverpb[name]!(address, grpc.credentials.createInsecure());
  return { kv: make('KV'), maintenance: make('Maintenance'), cluster: make('Cluster'), auth: make('Auth'), watch: make('Watch'), lease: make('Lease') };
}

function call<T>(stub: Stub, method: string, request: object, md = new grpc.Metadata()): Promise<T> {
  return new Promise((resolve, reject) => {
    (stub[method] as (r: object, m: grpc.Metadata, cb: (e: grpc.ServiceError | null, r: T) => void) => void).call(stub, request, md, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

async function rejects(p: Promise<unknown>, code: grpc.status, details: string): Promise<void> {
  await assert.rejects(p, (err: grpc.ServiceError) => {
    assert.equal(err.details, details);
    assert.equal(err.code, code, `code ${err.code} for ${err.details}`);
    return true;
  });
}

describe('etcd v3 gRPC API over the simulated members', function () {
  this.timeout(60_000);
  let clock: Clock;
  let store: EtcdClient;
  let endpoints: EtcdEndpoints;
  let etcd: Etcd3;
  const raw: Stubs[] = [];

  before(async () => {
    clock = new Clock(0);
    store = createSimulatedEtcd(clock, { random: new Random('grpc-test'), members: 3, latency: 'model' });
    endpoints = await startEtcdEndpoints({ cluster: store.cluster, clock, drive: (w) => clock.drive(w), port: 0, rootPassword: PASSWORD });
    for (const m of endpoints.members) raw.push(stubs(m.url.replace('http://', '')));
    etcd = new Etcd3({ hosts: endpoints.members.map((m) => m.url), auth: { username: 'root', password: PASSWORD } });
  });

  after(async () => {
    etcd?.close();
    for (const s of raw) for (const c of Object.values(s)) (c as grpc.Client).close();
    await endpoints?.close();
    await store?.close();
  });

  async function token(i = 0): Promise<grpc.Metadata> {
    const r = await call<{ token: string }>(raw[i]!.auth, 'Authenticate', { name: 'root', password: PASSWORD });
    assert.match(r.token, /^[a-zA-Z]{16}\.\d+$/);
    const md = new grpc.Metadata();
    md.set('token', r.token);
    return md;
  }

  it('puts, gets, deletes and runs txns through the etcd3 client; each write costs virtual time', async () => {
    const t0 = clock.now();
    await etcd.put('/registry/configmaps/default/a').value('{"a":1}');
    assert.ok(clock.now() > t0, 'the put took virtual time');
    assert.equal(await etcd.get('/registry/configmaps/default/a').string(), '{"a":1}');
    await etcd.put('/registry/configmaps/default/b').value('{"b":2}');
    assert.deepEqual(await etcd.getAll().prefix('/registry/configmaps/').keys(), ['/registry/configmaps/default/a', '/registry/configmaps/default/b']);
    const txn = await etcd.if('/registry/configmaps/default/a', 'Value', '==', '{"a":1}').then(etcd.put('/registry/configmaps/default/a').value('{"a":2}')).commit();
    assert.equal(txn.succeeded, true);
    assert.equal(await etcd.get('/registry/configmaps/default/a').string(), '{"a":2}');
    assert.equal(await etcd.delete().key('/registry/configmaps/default/b').then((r) => r.deleted), '1');
    // What the store holds is what the API server's store sees.
    assert.equal((await clock.drive(store.range({ key: '/registry/configmaps/default/a' }))).kvs[0]!.value, '{"a":2}');
  });

  it('answers Status as each member itself: its own ID, the leader it knows, its raft and bbolt figures', async () => {
    const status = store.cluster.status();
    const lead = status.find((m) => m.role === 'leader')!;
    for (const [i, m] of endpoints.members.entries()) {
      const s = await call<Record<string, string | boolean | string[] | Record<string, string>>>(raw[i]!.maintenance, 'Status', {});
      const member = store.cluster.member(m.name);
      const header = s.header as Record<string, string>;
      assert.equal(header.member_id, decimalId(member.memberId));
      assert.equal(s.leader, decimalId(lead.id));
      assert.equal(s.version, '3.4.23');
      assert.equal(Number(s.raftAppliedIndex), member.mvcc.consistentIndex);
      assert.equal(Number(s.dbSize), member.mvcc.dbSizeBytes);
      assert.equal(Number(s.dbSizeInUse), member.mvcc.dbSizeInUseBytes);
      assert.equal(Number(s.raftTerm), lead.term);
    }
  });

  it('lists the members with their own loopback client URLs and one cluster ID', async () => {
    const r = await call<{ header: { cluster_id: string }; members: { ID: string; name: string; clientURLs: string[] }[] }>(raw[1]!.cluster, 'MemberList', {});
    assert.deepEqual(
      r.members.map((m) => [m.name, m.ID, m.clientURLs]),
      endpoints.members.map((m) => [m.name, decimalId(store.cluster.member(m.name).memberId), [m.url]]),
    );
    const r0 = await call<{ header: { cluster_id: string } }>(raw[0]!.cluster, 'MemberList', {});
    assert.equal(r.header.cluster_id, r0.header.cluster_id);
    assert.notEqual(r.header.cluster_id, '0');
  });

  it("refuses KV without a token and with a bad one, in etcd's words; bad passwords too", async () => {
    await rejects(call(raw[0]!.kv, 'Range', { key: Buffer.from('a') }), grpc.status.INVALID_ARGUMENT, 'etcdserver: user name is empty');
    const bad = new grpc.Metadata();
    bad.set('token', 'abcdefghijklmnop.1');
    await rejects(call(raw[0]!.kv, 'Put', { key: Buffer.from('a'), value: Buffer.from('b') }, bad), grpc.status.UNAUTHENTICATED, 'etcdserver: invalid auth token');
    await rejects(call(raw[0]!.auth, 'Authenticate', { name: 'root', password: 'wrong' }), grpc.status.INVALID_ARGUMENT, 'etcdserver: authentication failed, invalid user ID or password');
    await rejects(call(raw[0]!.maintenance, 'Defragment', {}), grpc.status.UNKNOWN, 'auth: user name is empty');
  });

  it("answers bad requests with etcd's codes and texts", async () => {
    const md = await token();
    await rejects(call(raw[0]!.kv, 'Put', { key: Buffer.alloc(0), value: Buffer.from('x') }, md), grpc.status.INVALID_ARGUMENT, 'etcdserver: key is not provided');
    await rejects(call(raw[0]!.kv, 'Range', { key: Buffer.from('a'), revision: 1_000_000 }, md), grpc.status.OUT_OF_RANGE, 'etcdserver: mvcc: required revision is a future revision');
    await rejects(call(raw[0]!.kv, 'Put', { key: Buffer.from('big'), value: Buffer.alloc(1.5 * 1024 * 1024, 'x') }, md), grpc.status.INVALID_ARGUMENT, 'etcdserver: request is too large');
    // Above gRPC's own limit (1.5 MiB + 512 KiB) the message is refused before it is decoded.
    await assert.rejects(call(raw[0]!.kv, 'Put', { key: Buffer.from('big'), value: Buffer.alloc(2.1 * 1024 * 1024, 'x') }, md), (err: grpc.ServiceError) => err.code === grpc.status.RESOURCE_EXHAUSTED);
    await rejects(
      call(raw[0]!.kv, 'Txn', { success: [{ request_put: { key: Buffer.from('d'), value: Buffer.from('1') } }, { request_put: { key: Buffer.from('d'), value: Buffer.from('2') } }] }, md),
      grpc.status.INVALID_ARGUMENT,
      'etcdserver: duplicate key given in txn request',
    );
    const rev = Number((await call<{ header: { revision: string } }>(raw[0]!.kv, 'Put', { key: Buffer.from('c'), value: Buffer.from('1') }, md)).header.revision);
    await call(raw[0]!.kv, 'Compact', { revision: rev }, md);
    await rejects(call(raw[0]!.kv, 'Range', { key: Buffer.from('c'), revision: rev - 1 }, md), grpc.status.OUT_OF_RANGE, 'etcdserver: mvcc: required revision has been compacted');
  });

  it('streams watch events from a revision, answers progress requests, cancels', async () => {
    const md = await token(2);
    const stream = (raw[2]!.watch.Watch as (m: grpc.Metadata) => grpc.ClientDuplexStream<object, Record<string, unknown>>).call(raw[2]!.watch, md);
    const got: Record<string, unknown>[] = [];
    const waitFor = async (pred: (r: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
      for (let i = 0; i < 200; i++) {
        const hit = got.find(pred);
        if (hit) return hit;
        // Nothing paces the clock here: watch responses travel on virtual time.
        await clock.advance(1);
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error(`no such watch response in ${JSON.stringify(got)}`);
    };
    stream.on('data', (r: Record<string, unknown>) => got.push(r));
    stream.on('error', () => undefined);
    const put = await etcd.put('/registry/pods/default/p1').value('{"v":1}');
    const from = Number(put.header.revision);
    stream.write({ create_request: { key: Buffer.from('/registry/pods/'), range_end: Buffer.from('/registry/pods0'), start_revision: from, prev_kv: true } });
    const created = await waitFor((r) => r.created === true);
    assert.equal(created.watch_id, '0');
    const first = await waitFor((r) => Array.isArray(r.events) && r.events.length > 0);
    const ev = (first.events as { type: number; kv: { key: Buffer; value: Buffer; mod_revision: string } }[])[0]!;
    assert.equal(ev.kv.key.toString(), '/registry/pods/default/p1');
    assert.equal(ev.kv.mod_revision, String(from));
    await etcd.delete().key('/registry/pods/default/p1');
    const del = await waitFor((r) => Array.isArray(r.events) && (r.events as { type: number }[]).some((e) => e.type === 1));
    const delEv = (del.events as { type: number; prev_kv: { value: Buffer } }[])[0]!;
    assert.equal(delEv.prev_kv.value.toString(), '{"v":1}');
    stream.write({ progress_request: {} });
    const progress = await waitFor((r) => r.watch_id === '-1' && !r.created);
    assert.equal(Number((progress.header as { revision: string }).revision), store.cluster.member(endpoints.members[2]!.name).mvcc.revision);
    stream.write({ cancel_request: { watch_id: 0 } });
    await waitFor((r) => r.canceled === true && r.watch_id === '0');
    stream.end();
  });

  it('refuses a watch without a token as etcd does: created and canceled at once', async () => {
    const stream = (raw[0]!.watch.Watch as () => grpc.ClientDuplexStream<object, Record<string, unknown>>).call(raw[0]!.watch);
    stream.on('error', () => undefined);
    const first = new Promise<Record<string, unknown>>((resolve) => stream.once('data', resolve));
    stream.write({ create_request: { key: Buffer.from('a') } });
    const r = await first;
    assert.equal(r.created, true);
    assert.equal(r.canceled, true);
    assert.equal(r.cancel_reason, 'rpc error: code = InvalidArgument desc = etcdserver: user name is empty');
    stream.end();
  });

  it('grants, lists, keeps alive and revokes leases through the etcd3 client', async () => {
    const lease = etcd.lease(60, { autoKeepAlive: false });
    const id = await lease.grant();
    await lease.put('/registry/leases/x').value('y');
    const ttl = await lease.keepaliveOnce();
    assert.equal(ttl.TTL, '60');
    const leases = await call<{ leases: { ID: string }[] }>(raw[0]!.lease, 'LeaseLeases', {});
    assert.ok(leases.leases.some((l) => l.ID === id));
    await lease.revoke();
    assert.equal(await etcd.get('/registry/leases/x').string(), null);
  });

  it('closes a member\'s listener while the member is stopped and listens again once it starts', async () => {
    const name = endpoints.members[1]!.name;
    store.cluster.stop(name);
    await waitUntil(async () => {
      try {
        await call(raw[1]!.maintenance, 'Status', {});
        return false;
      } catch (err) {
        return (err as grpc.ServiceError).code === grpc.status.UNAVAILABLE;
      }
    });
    store.cluster.start(name);
    await waitUntil(async () => {
      try {
        await call(raw[1]!.maintenance, 'Status', {});
        return true;
      } catch {
        return false;
      }
    });
  });

  it("with quorum lost, a write to the member that is up fails as etcd 3.4's does; a serializable read still answers", async () => {
    const md = await token(0);
    const up = endpoints.members[0]!.name;
    const down = endpoints.members.slice(1).map((m) => m.name);
    // A watch that requires a leader (etcdctl watch's WithRequireLeader: metadata hasleader=true).
    const requiring = (): grpc.ClientDuplexStream<object, Record<string, unknown>> => {
      const m = md.clone();
      m.set('hasleader', 'true');
      return (raw[0]!.watch.Watch as (m: grpc.Metadata) => grpc.ClientDuplexStream<object, Record<string, unknown>>).call(raw[0]!.watch, m);
    };
    const errorOf = (s: grpc.ClientDuplexStream<object, Record<string, unknown>>): Promise<grpc.ServiceError> => new Promise((resolve) => s.on('error', resolve));
    const early = requiring();
    const earlyError = errorOf(early);
    early.write({ create_request: { key: Buffer.from('w') } });
    await new Promise((r) => setTimeout(r, 100));
    for (const name of down) store.cluster.stop(name);
    try {
      // Still leader for now: the entry is appended but never committed, and etcd's request
      // timeout (5 s + two election timeouts) answers for it.
      let t0 = clock.now();
      await rejects(call(raw[0]!.kv, 'Put', { key: Buffer.from('q'), value: Buffer.from('1') }, md), grpc.status.UNAVAILABLE, 'etcdserver: request timed out');
      assert.ok(clock.now() - t0 >= 7000, `failed after ${clock.now() - t0} ms of virtual time`);
      // By now it stepped down (check-quorum): a proposal waits for a leader until the timeout,
      // then gets the context's error, as etcd 3.4.23 answers it.
      assert.equal(store.cluster.leader(), undefined);
      t0 = clock.now();
      await rejects(call(raw[0]!.kv, 'Put', { key: Buffer.from('q'), value: Buffer.from('1') }, md), grpc.status.UNKNOWN, 'context deadline exceeded');
      assert.ok(clock.now() - t0 >= 7000, `failed after ${clock.now() - t0} ms of virtual time`);
      const r = await call<{ kvs: unknown[] }>(raw[0]!.kv, 'Range', { key: Buffer.from('n'), serializable: true }, md);
      assert.ok(Array.isArray(r.kvs));
      await rejects(call(raw[0]!.kv, 'Range', { key: Buffer.from('n') }, md), grpc.status.UNAVAILABLE, 'etcdserver: request timed out');
      // Three election timeouts without a leader end the watch that requires one; a new one is refused.
      const ended = await earlyError;
      assert.equal(ended.code, grpc.status.UNAVAILABLE);
      assert.equal(ended.details, 'etcdserver: no leader');
      const refused = await errorOf(requiring());
      assert.equal(refused.details, 'etcdserver: no leader');
      // Authenticate is a Raft round in etcd 3.4: without a quorum nobody can log in.
      await rejects(call(raw[0]!.auth, 'Authenticate', { name: 'root', password: PASSWORD }), grpc.status.UNKNOWN, 'context deadline exceeded');
      assert.equal(store.cluster.member(up).isRunning(), true);
    } finally {
      for (const name of down) store.cluster.start(name);
      await clock.advance(3000);
      // Their listeners open again; the clients reconnect after their backoff.
      for (const i of [1, 2]) {
        await waitUntil(async () => {
          try {
            await call(raw[i]!.maintenance, 'Status', {});
            return true;
          } catch {
            return false;
          }
        });
      }
    }
  });

  it('lists and disarms alarms with the alarm store every member replicates', async () => {
    const md = await token();
    const member = store.cluster.members[0]!;
    await call(raw[0]!.maintenance, 'Alarm', { action: 1, memberID: decimalId(member.memberId), alarm: 1 }, md);
    const list = await call<{ alarms: { memberID: string; alarm: number }[] }>(raw[1]!.maintenance, 'Alarm', { action: 0 });
    assert.deepEqual(list.alarms.map((a) => [a.memberID, a.alarm]), [[decimalId(member.memberId), 1]]);
    const status = await call<{ errors: string[] }>(raw[2]!.maintenance, 'Status', {});
    assert.deepEqual(status.errors, [`memberID:${decimalId(member.memberId)} alarm:NOSPACE `]);
    await rejects(call(raw[0]!.kv, 'Put', { key: Buffer.from('n'), value: Buffer.from('1') }, md), grpc.status.RESOURCE_EXHAUSTED, 'etcdserver: mvcc: database space exceeded');
    await call(raw[0]!.maintenance, 'Alarm', { action: 2, memberID: decimalId(member.memberId), alarm: 1 }, md);
    assert.deepEqual((await call<{ alarms: unknown[] }>(raw[0]!.maintenance, 'Alarm', { action: 0 })).alarms, []);
    await call(raw[0]!.kv, 'Put', { key: Buffer.from('n'), value: Buffer.from('1') }, md);
  });

  it("Defragment shrinks the member's bbolt file to what it holds, as real defrag does; only that member's", async () => {
    const md = await token();
    const value = Buffer.alloc(4000, 'v');
    let rev = 0;
    for (let i = 0; i < 60; i++) rev = Number((await call<{ header: { revision: string } }>(raw[0]!.kv, 'Put', { key: Buffer.from(`/defrag/${i}`), value }, md)).header.revision);
    // The puts reach the file at bbolt's next commit (100 ms batches): a compaction before it
    // would free pages the file never held. Where the batch falls depends on the virtual time
    // the earlier tests left, so wait for it.
    await clock.advance(300);
    await call(raw[0]!.kv, 'DeleteRange', { key: Buffer.from('/defrag/'), range_end: Buffer.from('/defrag0') }, md);
    await call(raw[0]!.kv, 'Compact', { revision: rev + 1 }, md);
    // bbolt frees the compacted pages at the next commit (100 ms batches).
    await clock.advance(300);
    const size = async (i: number): Promise<{ dbSize: number; dbSizeInUse: number }> => {
      const s = await call<{ dbSize: string; dbSizeInUse: string }>(raw[i]!.maintenance, 'Status', {});
      return { dbSize: Number(s.dbSize), dbSizeInUse: Number(s.dbSizeInUse) };
    };
    const before = [await size(0), await size(1)];
    assert.ok(before[0]!.dbSize > before[0]!.dbSizeInUse, JSON.stringify(before));
    await call(raw[0]!.maintenance, 'Defragment', {}, md);
    const after = [await size(0), await size(1)];
    assert.ok(after[0]!.dbSize < before[0]!.dbSize, JSON.stringify({ before, after }));
    assert.ok(after[0]!.dbSize - after[0]!.dbSizeInUse <= 8192, JSON.stringify(after));
    assert.equal(after[1]!.dbSize, before[1]!.dbSize);
  });

  it('MoveLeader: a follower refuses it as etcd does, the leader hands leadership over', async () => {
    const lead = store.cluster.leader()!;
    const li = endpoints.members.findIndex((m) => m.name === lead.name);
    const fi = (li + 1) % endpoints.members.length;
    const follower = store.cluster.member(endpoints.members[fi]!.name);
    await rejects(call(raw[fi]!.maintenance, 'MoveLeader', { targetID: decimalId(follower.memberId) }), grpc.status.FAILED_PRECONDITION, 'etcdserver: not leader');
    // It answers once the transferee leads.
    await call(raw[li]!.maintenance, 'MoveLeader', { targetID: decimalId(follower.memberId) });
    assert.equal(store.cluster.leader()?.name, follower.name);
    const s = await call<{ leader: string }>(raw[li]!.maintenance, 'Status', {});
    assert.equal(s.leader, decimalId(follower.memberId));
  });

  it('survives garbage: undecodable messages and random bytes on every unary method get a status, never a crash', async () => {
    const md = await token();
    const client = new grpc.Client(endpoints.members[0]!.url.replace('http://', ''), grpc.credentials.createInsecure());
    const methods = [
      '/etcdserverpb.KV/Range',
      '/etcdserverpb.KV/Put',
      '/etcdserverpb.KV/DeleteRange',
      '/etcdserverpb.KV/Txn',
      '/etcdserverpb.KV/Compact',
      '/etcdserverpb.Lease/LeaseGrant',
      '/etcdserverpb.Lease/LeaseRevoke',
      '/etcdserverpb.Lease/LeaseTimeToLive',
      '/etcdserverpb.Cluster/MemberList',
      '/etcdserverpb.Maintenance/Alarm',
      '/etcdserverpb.Maintenance/Status',
      '/etcdserverpb.Maintenance/MoveLeader',
      '/etcdserverpb.Auth/Authenticate',
      '/etcdserverpb.Auth/UserAdd',
    ];
    // A seeded stream of bytes, so a failure repeats.
    let x = 12345;
    const next = (): number => (x = (x * 1103515245 + 12345) % 2 ** 31) & 0xff;
    const identity = (b: Buffer): Buffer => b;
    let answered = 0;
    for (const method of methods) {
      for (let i = 0; i < 20; i++) {
        const payload = Buffer.from(Array.from({ length: (i * 7) % 64 }, next));
        await new Promise<void>((resolve) => {
          client.makeUnaryRequest(method, identity, identity, payload, md, (err) => {
            if (err) assert.ok(err.code !== grpc.status.UNAVAILABLE, `${method}: ${err.code} ${err.details}`);
            answered++;
            resolve();
          });
        });
      }
    }
    assert.equal(answered, methods.length * 20);
    client.close();
    // Still serving.
    await call(raw[0]!.kv, 'Range', { key: Buffer.from('a') }, md);
  });
});

async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out waiting');
}
