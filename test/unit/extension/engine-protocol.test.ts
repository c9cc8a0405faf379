import { strict as assert } from 'node:assert';
import { ENGINE_PROTOCOL, MAX_TEXT, parseFromEngine, parseToEngine, RESULTS, type FromEngine, type WireViewChange } from '../../../src/protocol/engine';
import { COALESCE_MS, MAX_CHANGES, Outbox, type OutboxTimers } from '../../../src/extension/engine/outbox';
import { RemoteClusterView } from '../../../src/extension/engine/remote-view';
import { DEFAULT_SETTINGS } from '../../../src/extension/settings';

function fakeTimers(): OutboxTimers & { run(): void; pending: number } {
  let queued: (() => void)[] = [];
  return {
    setTimeout: (fn) => {
      queued.push(fn);
      return queued.length;
    },
    clearTimeout: () => undefined,
    run() {
      const q = queued;
      queued = [];
      for (const fn of q) fn();
    },
    get pending() {
      return queued.length;
    },
  };
}

function pod(name: string, rv: number, node?: string): WireViewChange {
  return {
    kind: 'pods',
    type: 'MODIFIED',
    key: `default/${name}`,
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', resourceVersion: String(rv) }, spec: node ? { nodeName: node } : {} },
    row: { status: 'Running', ready: '1/1' },
    requests: { milliCPU: 100, memory: 1024 },
  };
}

describe('engine protocol', () => {
  it('accepts the extension settings and the calls the extension makes', () => {
    assert.deepEqual(parseToEngine({ type: 'start', protocol: ENGINE_PROTOCOL, settings: DEFAULT_SETTINGS, from: 'saved', persistence: { file: '/tmp/ws/cluster.json' } }).ok, true);
    assert.deepEqual(parseToEngine({ type: 'start', protocol: ENGINE_PROTOCOL, settings: DEFAULT_SETTINGS, from: 'snapshot', restoreFile: '/tmp/snap.json' }).ok, true);
    assert.deepEqual(parseToEngine({ type: 'stop', save: true }), { ok: true, message: { type: 'stop', save: true } });
    assert.deepEqual(parseToEngine({ type: 'call', id: 1, method: 'apply', params: { file: 'web.yaml', text: 'kind: Pod', dryRun: false } }).ok, true);
    assert.deepEqual(parseToEngine({ type: 'call', id: 2, method: 'node', params: { action: 'drain', name: 'kubesim-worker' } }).ok, true);
    assert.deepEqual(parseToEngine({ type: 'ack' }), { ok: true, message: { type: 'ack' } });
  });

  it('refuses what is not a message of the protocol, saying why', () => {
    const refused = (m: unknown) => {
      const p = parseToEngine(m);
      assert.equal(p.ok, false, JSON.stringify(m));
      return (p as { error: string }).error;
    };
    assert.match(refused({ type: 'start', protocol: 'kubesim/engine@0', settings: DEFAULT_SETTINGS }), /protocol "kubesim\/engine@0" is not kubesim\/engine@1/);
    assert.match(refused({ type: 'start', protocol: ENGINE_PROTOCOL, settings: { ...DEFAULT_SETTINGS, fieldValidation: 'Loose' }, from: 'saved' }), /fieldValidation/);
    assert.match(refused({ type: 'start', protocol: ENGINE_PROTOCOL, settings: DEFAULT_SETTINGS }), /from: expected saved, fresh or snapshot/);
    assert.match(refused({ type: 'start', protocol: ENGINE_PROTOCOL, settings: DEFAULT_SETTINGS, from: 'snapshot' }), /expected restore or restoreFile/);
    assert.match(refused({ type: 'start', protocol: ENGINE_PROTOCOL, settings: DEFAULT_SETTINGS, from: 'saved', persistence: { file: 'relative/cluster.json' } }), /persistence/);
    assert.match(refused({ type: 'call', id: 1, method: 'exportSnapshot', params: { file: 'x\u0000.json' } }), /file: expected a path/);
    assert.match(refused({ type: 'stop' }), /save: expected a boolean/);
    assert.match(refused({ type: 'call', id: 1, method: 'eval', params: {} }), /unknown method "eval"/);
    assert.match(refused({ type: 'call', id: 1, method: '__proto__', params: {} }), /unknown method/);
    assert.match(refused({ type: 'call', id: -1, method: 'summary', params: {} }), /id/);
    assert.match(refused({ type: 'call', id: 1, method: 'scale', params: { ref: { kind: 'Deployment', name: 'web' }, replicas: -1 } }), /replicas/);
    assert.match(refused({ type: 'call', id: 1, method: 'node', params: { action: 'reboot', name: 'n' } }), /action/);
    assert.match(refused({ type: 'call', id: 1, method: 'apply', params: { file: 'a.yaml', text: 'x'.repeat(MAX_TEXT + 1), dryRun: false } }), /64 MiB/);
    assert.match(refused({ type: 'call', id: 1, method: 'apply', params: { file: 'a.yaml', text: '' } }), /dryRun/);
    assert.match(refused(null), /not an object/);
  });

  it('checks the engine side too: view changes, replies and their results', () => {
    assert.equal(parseFromEngine({ type: 'view', changes: [pod('a', 1)], time: 0 }).ok, true);
    assert.match((parseFromEngine({ type: 'view', changes: [{ ...pod('a', 1), row: { status: {} } }], time: 0 }) as { error: string }).error, /change 0: row/);
    assert.match((parseFromEngine({ type: 'view', changes: [{ ...pod('a', 1), kind: 'secrets' }], time: 0 }) as { error: string }).error, /change 0/);
    assert.equal(parseFromEngine({ type: 'reply', id: 3, ok: false, message: 'Error from server (NotFound)' }).ok, true);
    assert.equal(parseFromEngine({ type: 'reply', id: 3, ok: true }).ok, false);
    assert.equal(RESULTS.summary({ revision: 1, nodes: { total: 1, ready: 1 }, pods: { running: 0, pending: 0, failed: 0 }, clock: 'running', speed: 1, time: 0, user: 'u' }), true);
    assert.equal(RESULTS.apply([{ file: 'a', index: 0, ref: 'pod/a', action: 'exploded', message: '', warnings: [] }]), false);
    assert.equal(RESULTS.node({ ok: true, lines: ['node/a cordoned'] }), true);
  });
});

describe('engine outbox', () => {
  it('keeps one message in flight, coalesces by object and sends at most MAX_CHANGES per message', () => {
    const timers = fakeTimers();
    const sent: FromEngine[] = [];
    const box = new Outbox((m) => sent.push(m), () => 42, timers);
    const burst: WireViewChange[] = [];
    for (let rv = 1; rv <= 3; rv++) for (let i = 0; i < MAX_CHANGES + 10; i++) burst.push(pod(`p${i}`, rv * 1000 + i));
    box.viewChanges(burst);
    assert.equal(sent.length, 0, `nothing before ${COALESCE_MS} ms`);
    assert.equal(box.pending, MAX_CHANGES + 10, 'one entry per object');
    timers.run();
    assert.equal(sent.length, 1);
    const first = sent[0] as Extract<FromEngine, { type: 'view' }>;
    assert.equal(first.changes.length, MAX_CHANGES);
    assert.equal(first.time, 42);
    assert.ok(first.changes.every((c) => Number(c.object.metadata.resourceVersion) >= 3000), 'the latest version of each');
    box.viewChanges([pod('late', 9999)]);
    timers.run();
    assert.equal(sent.length, 1, 'nothing more until the ack');
    box.ack();
    assert.equal((sent[1] as Extract<FromEngine, { type: 'view' }>).changes.length, 11);
    box.mirrorSync({ events: [{ type: 'ADDED', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'd' } } }] });
    box.ack();
    assert.equal(sent[2]!.type, 'mirror');
  });

  it('tells when the changes queued before a mark have gone (the worker\'s started follows its first listing)', () => {
    const timers = fakeTimers();
    const sent: FromEngine[] = [];
    const box = new Outbox((m) => sent.push(m), () => 0, timers);
    const marks: string[] = [];
    box.afterViewChanges(() => marks.push('empty'));
    assert.deepEqual(marks, ['empty'], 'nothing queued: at once');
    box.viewChanges(Array.from({ length: MAX_CHANGES * 2 + 1 }, (_, i) => pod(`p${i}`, i + 1)));
    box.afterViewChanges(() => marks.push(`listed after ${sent.length} messages`));
    // A change of a listed object after the mark: the mark does not wait for it.
    box.viewChanges([pod('p0', 9999), pod('later', 10_000)]);
    timers.run();
    assert.deepEqual(marks, ['empty']);
    // p0 (its new version, in its place) to p249, p250 to p499, then p500 and later.
    box.ack();
    assert.deepEqual(marks, ['empty']);
    box.ack();
    assert.deepEqual(marks, ['empty', 'listed after 3 messages']);
    assert.equal(box.pending, 0);
    assert.deepEqual((sent[2] as Extract<FromEngine, { type: 'view' }>).changes.map((c) => c.key), ['default/p500', 'default/later']);
    assert.equal((sent[0] as Extract<FromEngine, { type: 'view' }>).changes[0]!.object.metadata.resourceVersion, '9999');
  });

  it('starves nothing: an object changing every turn still goes out, and the mirror gets its turns while the tree never empties', () => {
    // A 30,000-pod apply as the stream sees it: more new objects each turn (pods, events) than a
    // message carries, and one object (the Deployment) changing on every turn.
    const timers = fakeTimers();
    const sent: FromEngine[] = [];
    const box = new Outbox((m) => sent.push(m), () => 0, timers);
    const deployment = (rv: number): WireViewChange => ({ ...pod('web', rv), kind: 'deployments', key: 'default/web' });
    let next = 0;
    const turn = (rv: number) => {
      box.viewChanges([...Array.from({ length: MAX_CHANGES + 50 }, () => pod(`p${next++}`, 1)), deployment(rv)]);
      box.mirrorSync({ events: [{ type: 'MODIFIED', object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', resourceVersion: String(rv) } } }] });
    };
    turn(1);
    timers.run();
    for (let rv = 2; rv <= 40; rv++) {
      turn(rv);
      box.ack();
    }
    const views = sent.filter((m): m is Extract<FromEngine, { type: 'view' }> => m.type === 'view');
    const mirrors = sent.filter((m): m is Extract<FromEngine, { type: 'mirror' }> => m.type === 'mirror');
    assert.ok(views.some((m) => m.changes.some((c) => c.kind === 'deployments')), 'the Deployment reached the tree');
    assert.ok(mirrors.length >= 15, `the mirror got its turns (${mirrors.length} of ${sent.length} messages)`);
    assert.ok(box.pending > 0, 'the tree never emptied');
  });

  it('sends a full mirror listing whole, dropping the mirror events queued before it', () => {
    const timers = fakeTimers();
    const sent: FromEngine[] = [];
    const box = new Outbox((m) => sent.push(m), () => 0, timers);
    box.mirrorSync({ events: [{ type: 'MODIFIED', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'old' } } }] });
    const events = Array.from({ length: MAX_CHANGES * 3 }, (_, i) => ({ type: 'ADDED' as const, object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}` } } }));
    box.mirrorSync({ replace: true, events });
    timers.run();
    assert.deepEqual(sent.map((m) => m.type), ['mirror']);
    assert.equal((sent[0] as Extract<FromEngine, { type: 'mirror' }>).params.events.length, MAX_CHANGES * 3);
    box.ack();
    assert.equal(sent.length, 1, 'the earlier event went with the listing');
  });
});

describe('remote cluster view', () => {
  it('answers as the informer view does: rows, pods by node with their requests, old versions', () => {
    const view = new RemoteClusterView();
    const seen: string[] = [];
    view.onChange((cs) => seen.push(...cs.map((c) => `${c.type} ${c.key}${c.old ? ` (was ${c.old.metadata.resourceVersion})` : ''}`)));
    view.apply([{ ...pod('b', 1, 'n1'), type: 'ADDED' }, { ...pod('a', 2, 'n1'), type: 'ADDED' }]);
    view.apply([pod('a', 3, 'n2')]);
    assert.deepEqual(seen, ['ADDED default/b', 'ADDED default/a', 'MODIFIED default/a (was 2)']);
    assert.deepEqual(view.list('pods').map((v) => v.key), ['default/a', 'default/b']);
    assert.deepEqual(view.podsOnNode('n1').map((v) => v.key), ['default/b']);
    assert.deepEqual(view.requested('n2'), { milliCPU: 100, memory: 1024, pods: 1 });
    assert.equal(view.get('pods', 'default/a')?.row.status, 'Running');
    view.apply([{ ...pod('a', 4, 'n2'), type: 'DELETED' }]);
    assert.equal(view.count('pods'), 1);
    assert.deepEqual(view.requested('n2'), { milliCPU: 0, memory: 0, pods: 0 });
  });
});
