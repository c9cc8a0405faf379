/**
 * The engine worker streams only the newest Events (event-window.ts): the host's copy, kept by
 * the window's changes, must hold exactly the newest events of the worker's informer after every
 * batch, as the tree lists them (keys, order and latest versions), for random batches of adds,
 * updates that make events newer or older, and deletes; and from a real cluster, the tree's
 * Events group must read the same from the window as from every event.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as HostModule from '../../../src/extension/cluster-host';
import { EventWindow } from '../../../src/extension/engine/event-window';
import { RemoteClusterView } from '../../../src/extension/engine/remote-view';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../../../src/extension/settings';
import { objectItem } from '../../../src/extension/tree/items';
import { newestEvents, RECENT_EVENTS } from '../../../src/extension/view-queries';
import { viewSummary } from '../../../src/extension/view-summary';
import type { ViewChange } from '../../../src/extension/view-types';
import type { KubeObject } from '../../../src/engine/api/types';
import type { WallClock } from '../../../src/engine/pacer';
import { seeded } from '../perf/seeded';

function event(name: string, rv: number, second: number, micro: boolean): KubeObject {
  const t = new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { namespace: 'default', name, resourceVersion: String(rv) },
    // Both kinds of time the tree orders by: core lastTimestamp, events.k8s.io eventTime.
    ...(micro ? { eventTime: t.replace(/\.(\d{3})Z$/, '.$1000Z') } : { lastTimestamp: t.replace('.000Z', 'Z') }),
    involvedObject: { kind: 'Pod', namespace: 'default', name: `pod-${name}` },
    reason: 'Scheduled',
    message: `event ${name} at ${rv}`,
  } as KubeObject;
}

const wire = (c: ViewChange) => ({ kind: c.kind, type: c.type, key: c.key, object: c.object, row: { name: c.key, rv: String(c.object.metadata.resourceVersion) } });

describe('the engine worker streams the newest events', () => {
  for (const size of [1, 5, 50]) {
    it(`keeps the host's copy the newest ${size} of every event, batch after batch`, () => {
      const next = seeded(1300 + size);
      const cache = new Map<string, KubeObject>();
      const window = new EventWindow(size, () => cache.entries());
      const remote = new RemoteClusterView();
      let rv = 1;
      for (let i = 0; i < 3; i++) {
        const e = event(`e${i}`, rv++, next(40), next(3) === 0);
        cache.set(`default/e${i}`, e);
      }
      remote.apply(window.start().map(wire));
      let names = 3;
      for (let batch = 0; batch < 600; batch++) {
        const changes: ViewChange[] = [];
        for (let n = 1 + next(8); n > 0; n--) {
          const keys = [...cache.keys()];
          const r = next(10);
          if (r < 4 || keys.length === 0) {
            const name = `e${names++}`;
            const e = event(name, rv++, next(60) + batch / 10, next(3) === 0);
            cache.set(`default/${name}`, e);
            changes.push({ kind: 'events', type: 'ADDED', key: `default/${name}`, object: e });
          } else if (r < 8) {
            // An update: seen again later (newer), or rewritten with an older time.
            const key = keys[next(keys.length)]!;
            const e = event(key.slice('default/'.length), rv++, r < 7 ? next(60) + batch / 10 + 5 : next(20), next(3) === 0);
            const old = cache.get(key)!;
            cache.set(key, e);
            changes.push({ kind: 'events', type: 'MODIFIED', key, object: e, old });
          } else {
            const key = keys[r === 8 ? next(keys.length) : 0]!;
            const e = cache.get(key)!;
            cache.delete(key);
            changes.push({ kind: 'events', type: 'DELETED', key, object: e });
          }
        }
        // Other kinds pass as they are.
        const pod: ViewChange = { kind: 'pods', type: 'ADDED', key: `default/p${batch}`, object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${batch}`, namespace: 'default' } } };
        const out = window.changes([pod, ...changes]);
        assert.deepEqual(out[0], pod);
        assert.ok(out.slice(1).every((c) => c.kind === 'events'));
        remote.apply(out.map(wire));
        const want = newestEvents(cache.entries(), ([, e]) => e, size).map(([key, e]) => [key, e]);
        assert.deepEqual(remote.recentEvents(size).map((v) => [v.key, v.object]), want, `batch ${batch}`);
        assert.equal(remote.count('events'), Math.min(size, cache.size));
      }
    });
  }

  it('sends nothing for an event older than the window, and reads the informer only when the window loses members', () => {
    const cache = new Map<string, KubeObject>();
    let reads = 0;
    const window = new EventWindow(2, () => (reads++, cache.entries()));
    for (let i = 0; i < 4; i++) cache.set(`default/e${i}`, event(`e${i}`, i + 1, 10 + i, false));
    assert.deepEqual(window.start().map((c) => [c.type, c.key]), [['ADDED', 'default/e3'], ['ADDED', 'default/e2']]);
    reads = 0;
    const older = event('old', 10, 1, false);
    cache.set('default/old', older);
    assert.deepEqual(window.changes([{ kind: 'events', type: 'ADDED', key: 'default/old', object: older }]), []);
    const newer = event('new', 11, 30, true);
    cache.set('default/new', newer);
    assert.deepEqual(window.changes([{ kind: 'events', type: 'ADDED', key: 'default/new', object: newer }]).map((c) => [c.type, c.key]), [['ADDED', 'default/new'], ['DELETED', 'default/e2']]);
    assert.equal(reads, 0);
    const gone = cache.get('default/e3')!;
    cache.delete('default/e3');
    assert.deepEqual(window.changes([{ kind: 'events', type: 'DELETED', key: 'default/e3', object: gone }]).map((c) => [c.type, c.key]), [['ADDED', 'default/e2'], ['DELETED', 'default/e3']]);
    assert.equal(reads, 1);
  });

  it("shows the tree's Events group the same from a real cluster's window as from all its events", async function () {
    this.timeout(120_000);
    const still: WallClock = { now: () => 0, after: () => () => undefined };
    const settings: KubeSimSettings = { ...DEFAULT_SETTINGS, nodes: { ...DEFAULT_SETTINGS.nodes, count: 2 }, etcd: { ...DEFAULT_SETTINGS.etcd, latency: 'instant' } };
    const host = await HostModule.ClusterHost.start({ settings, mirror: () => undefined, onError: (err) => assert.fail(String(err)), wall: still });
    try {
      const keyOf = (o: KubeObject) => `${o.metadata.namespace}/${o.metadata.name}`;
      const window = new EventWindow(RECENT_EVENTS, function* () {
        for (const o of host.view.objects('events')) yield [keyOf(o), o] as const;
      });
      // The host's copy as before (every event streamed) and through the window.
      const every = new RemoteClusterView();
      const remote = new RemoteClusterView();
      const wired = (changes: readonly ViewChange[]) => changes.map((c) => ({ kind: c.kind, type: c.type, key: c.key, object: viewSummary(c.kind, c.object), row: host.view.row(c.kind, c.object) as Record<string, string> }));
      host.view.onChange((changes) => {
        every.apply(wired(changes));
        remote.apply(wired(window.changes(changes)));
      });
      every.apply(wired(host.view.objects('events').map((o) => ({ kind: 'events' as const, type: 'ADDED' as const, key: keyOf(o), object: o }))));
      remote.apply(wired(window.start()));
      const check = () => {
        const items = (view: RemoteClusterView) => view.recentEvents(RECENT_EVENTS).map((v) => objectItem(v, {}));
        assert.deepEqual(remote.recentEvents(RECENT_EVENTS).map((v) => v.key), host.view.recentEvents(RECENT_EVENTS).map((v) => v.key));
        assert.deepEqual(items(remote), items(every));
        assert.equal(Math.min(RECENT_EVENTS, remote.count('events')), Math.min(RECENT_EVENTS, every.count('events')));
        assert.equal(remote.count('events'), Math.min(RECENT_EVENTS, host.view.count('events')));
      };
      const web = readFileSync(join(__dirname, '../../../examples/web.yaml'), 'utf8');
      await host.apply('web.yaml', web.replace(/replicas: \d+/, 'replicas: 20'));
      for (let i = 0; i < 6; i++) {
        await host.cluster.advance(5_000);
        await new Promise((r) => setImmediate(r));
        check();
      }
      // More events than the window holds: the group reads the newest from it.
      assert.ok(host.view.count('events') > RECENT_EVENTS, `${host.view.count('events')} events`);
    } finally {
      await host.dispose();
    }
  });
});
