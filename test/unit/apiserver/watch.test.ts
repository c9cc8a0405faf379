import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import type { WatchEvent } from '../../../src/engine/apiserver/request';
import { harness, type Harness } from './harness';
import { configMap, namespace } from './fixtures';

const meta = (o: JsonObject): JsonObject => o.metadata as JsonObject;
const cms = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default', user: ADMIN_USER } as const;
const summary = (events: WatchEvent[]) => events.map((e) => `${e.type} ${String(meta(e.object).name ?? '')}`);

describe('apiserver watch', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness({ compactionIntervalMs: 0 });
    await h.create(namespace('default'));
  });
  afterEach(() => h.close());

  it('resumes from a resourceVersion and delivers later events through selectors', async () => {
    const a = await h.req({ ...cms, verb: 'create', body: { object: configMap('a', {}, { app: 'x' }) } });
    const from = String(meta(a.body).resourceVersion);
    await h.req({ ...cms, verb: 'create', body: { object: configMap('b', {}, { app: 'y' }) } });
    await h.req({ ...cms, verb: 'patch', patchType: 'merge', name: 'a', body: { object: { data: { k: 'v' } } } });
    await h.clock.advance(1);
    const events: WatchEvent[] = [];
    const w = await h.server.watch({ ...cms, verb: 'watch', options: { resourceVersion: from, labelSelector: 'app=x' } }, (e) => events.push(e));
    assert.equal(w.response.code, 200);
    assert.deepEqual(summary(events), ['MODIFIED a']);
    await h.req({ ...cms, verb: 'patch', patchType: 'merge', name: 'b', body: { object: { metadata: { labels: { app: 'x' } } } } });
    await h.req({ ...cms, verb: 'delete', name: 'a' });
    await h.clock.advance(1);
    assert.deepEqual(summary(events), ['MODIFIED a', 'ADDED b', 'DELETED a']);
    const deleted = events[2]!.object;
    assert.equal(meta(deleted).resourceVersion, String((await h.store.status()).revision), 'a DELETED event carries the deletion revision');
    assert.ok(Object.isFrozen(deleted), 'watch objects are shared and frozen');
    w.stop();
  });

  it('starts with the current state as ADDED events when no resourceVersion is given', async () => {
    await h.req({ ...cms, verb: 'create', body: { object: configMap('a') } });
    await h.clock.advance(1);
    const events: WatchEvent[] = [];
    const w = await h.server.watch({ ...cms, verb: 'watch' }, (e) => events.push(e));
    assert.deepEqual(summary(events), ['ADDED a']);
    w.stop();
  });

  it('answers 410 "too old resource version" once the window is compacted', async () => {
    const first = await h.req({ ...cms, verb: 'create', body: { object: configMap('a') } });
    const old = Number(meta(first.body).resourceVersion);
    await h.req({ ...cms, verb: 'patch', patchType: 'merge', name: 'a', body: { object: { data: { k: '1' } } } });
    await h.clock.advance(1);
    await h.server.compact();
    await h.req({ ...cms, verb: 'patch', patchType: 'merge', name: 'a', body: { object: { data: { k: '2' } } } });
    await h.clock.advance(1);
    const compactedTo = await h.server.compact();
    assert.ok(compactedTo !== undefined && compactedTo > old);
    await h.clock.advance(1);
    const events: WatchEvent[] = [];
    await h.server.watch({ ...cms, verb: 'watch', options: { resourceVersion: String(old) } }, (e) => events.push(e));
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'ERROR');
    assert.equal(events[0]!.object.code, 410);
    assert.equal(events[0]!.object.reason, 'Expired');
    assert.match(String(events[0]!.object.message), new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`));
    const list = await h.req({ ...cms, verb: 'list', options: { resourceVersion: String(old), resourceVersionMatch: 'Exact' } });
    assert.equal(list.code, 410);
    assert.equal(list.body.message, 'The resourceVersion for the provided list is too old.');
  });

  it('lists at resourceVersion "0" from the watch cache and refuses future versions', async () => {
    await h.req({ ...cms, verb: 'create', body: { object: configMap('a') } });
    const names = (r: { body: JsonObject }) => ((r.body.items as JsonObject[]) ?? []).map((i) => meta(i).name);
    const cached = await h.req({ ...cms, verb: 'list', options: { resourceVersion: '0' } });
    assert.deepEqual(names(cached), [], 'the cache has not seen the write yet');
    await h.clock.advance(1);
    const later = await h.req({ ...cms, verb: 'list', options: { resourceVersion: '0' } });
    assert.deepEqual(names(later), ['a']);
    const consistent = await h.req({ ...cms, verb: 'list' });
    assert.deepEqual(names(consistent), ['a']);
    const current = (await h.store.status()).revision;
    const future = await h.req({ ...cms, verb: 'list', options: { resourceVersion: String(current + 10) } });
    assert.equal(future.code, 504);
    assert.equal(future.body.message, `Too large resource version: ${current + 10}, current: ${current}`);
    const bad = await h.req({ ...cms, verb: 'list', options: { resourceVersionMatch: 'Exact' } });
    assert.equal(bad.code, 422);
    assert.equal(bad.body.message, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
  });

  it('sends bookmarks to watchers that ask, on the clock', async () => {
    const events: WatchEvent[] = [];
    const w = await h.server.watch({ ...cms, verb: 'watch', options: { resourceVersion: '0', allowWatchBookmarks: true } }, (e) => events.push(e));
    await h.clock.advance(61_000);
    const bookmark = events.find((e) => e.type === 'BOOKMARK');
    assert.ok(bookmark);
    assert.equal(bookmark.object.kind, 'ConfigMap');
    assert.equal(meta(bookmark.object).resourceVersion, String((await h.store.status()).revision));
    w.stop();
  });

  it('compacts every five minutes of virtual time, keeping one interval of history', async () => {
    const server = await harness();
    await server.create(namespace('default'));
    await server.clock.advance(5 * 60 * 1000 + 1);
    const rev = (await server.store.status()).revision;
    await server.clock.advance(5 * 60 * 1000);
    const status = await server.store.status();
    assert.equal(status.compactRevision, rev, 'the second round compacts to the revision the first round recorded');
    await server.close();
  });
});
