import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import type { WatchEvent } from '../../../src/engine/apiserver/request';
import { harness, type Harness } from './harness';
import { namespace } from './fixtures';

const core = { group: '', version: 'v1', resource: 'events', namespace: 'shop' } as const;
const v1 = { group: 'events.k8s.io', version: 'v1', resource: 'events', namespace: 'shop' } as const;

/** What kube-scheduler writes when it binds a pod (events.k8s.io/v1, client-go tools/events). */
const scheduled = (): JsonObject => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'web-1.17f0a', namespace: 'shop' },
  eventTime: '2025-01-01T00:00:01.000000Z',
  reportingController: 'default-scheduler',
  reportingInstance: 'default-scheduler-kubesim-control-plane',
  action: 'Binding',
  reason: 'Scheduled',
  regarding: { kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'u-1', apiVersion: 'v1', resourceVersion: '12' },
  note: 'Successfully assigned shop/web-1 to kubesim-worker',
  type: 'Normal',
});

/** What a kubelet writes (core/v1, client-go tools/record). */
const pulled = (): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web-1.17f0b', namespace: 'shop' },
  involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'u-1', apiVersion: 'v1', resourceVersion: '13', fieldPath: 'spec.containers{nginx}' },
  reason: 'Pulled',
  message: 'Container image "nginx:1.27" already present on machine',
  source: { component: 'kubelet', host: 'kubesim-worker' },
  firstTimestamp: '2025-01-01T00:00:02Z',
  lastTimestamp: '2025-01-01T00:00:03Z',
  count: 2,
  type: 'Normal',
  reportingComponent: 'kubelet',
  reportingInstance: 'kubesim-worker',
});

const names = (list: JsonObject): string[] => (list.items as JsonObject[]).map((i) => String((i.metadata as JsonObject).name));

describe('apiserver: core/v1 and events.k8s.io/v1 Events are one resource', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness({ compactionIntervalMs: 0 });
    await h.create(namespace('shop'));
  });
  afterEach(() => h.close());

  it('stores an events.k8s.io/v1 Event as a core/v1 Event under /registry/events', async () => {
    await h.create(scheduled());
    const kv = (await h.store.range({ key: '/registry/events/shop/web-1.17f0a' })).kvs[0];
    assert.ok(kv, 'one key for both groups');
    const stored = JSON.parse(kv.value) as JsonObject;
    assert.equal(stored.apiVersion, 'v1');
    assert.deepEqual(stored.involvedObject, scheduled().regarding);
    assert.equal(stored.message, 'Successfully assigned shop/web-1 to kubesim-worker');
    assert.equal(stored.reportingComponent, 'default-scheduler');
    assert.equal(stored.note, undefined);
  });

  it('serves an events.k8s.io/v1 Event through core/v1 as kube-apiserver converts it', async () => {
    await h.create(scheduled());
    const res = await h.req({ ...core, verb: 'get', name: 'web-1.17f0a' });
    assert.equal(res.code, 200);
    const { metadata, ...rest } = res.body;
    assert.equal((metadata as JsonObject).name, 'web-1.17f0a');
    // encoding/json of core/v1 Event: source is a struct (always written), the zero
    // metav1.Time values are null, reportingComponent and reportingInstance have no omitempty.
    assert.deepEqual(rest, {
      kind: 'Event',
      apiVersion: 'v1',
      involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'u-1', apiVersion: 'v1', resourceVersion: '12' },
      reason: 'Scheduled',
      message: 'Successfully assigned shop/web-1 to kubesim-worker',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: 'Normal',
      eventTime: '2025-01-01T00:00:01.000000Z',
      action: 'Binding',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-kubesim-control-plane',
    });
  });

  it('serves a core/v1 Event through events.k8s.io/v1 with the deprecated fields', async () => {
    await h.create(pulled());
    const res = await h.req({ ...v1, verb: 'get', name: 'web-1.17f0b' });
    assert.equal(res.code, 200);
    const { metadata, ...rest } = res.body;
    assert.equal((metadata as JsonObject).namespace, 'shop');
    assert.deepEqual(rest, {
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      eventTime: null,
      reportingController: 'kubelet',
      reportingInstance: 'kubesim-worker',
      reason: 'Pulled',
      regarding: pulled().involvedObject,
      note: 'Container image "nginx:1.27" already present on machine',
      type: 'Normal',
      deprecatedSource: { component: 'kubelet', host: 'kubesim-worker' },
      deprecatedFirstTimestamp: '2025-01-01T00:00:02Z',
      deprecatedLastTimestamp: '2025-01-01T00:00:03Z',
      deprecatedCount: 2,
    });
  });

  it('lists both through either group, with each group field selectors', async () => {
    await h.create(scheduled());
    await h.create(pulled());
    const all = await h.req({ ...core, verb: 'list' });
    assert.deepEqual(names(all.body), ['web-1.17f0a', 'web-1.17f0b']);
    assert.deepEqual((all.body.items as JsonObject[]).map((i) => i.apiVersion), ['v1', 'v1']);
    const coreSelected = await h.req({ ...core, verb: 'list', options: { fieldSelector: 'involvedObject.name=web-1,reason=Scheduled' } });
    assert.deepEqual(names(coreSelected.body), ['web-1.17f0a']);
    const byComponent = await h.req({ ...core, verb: 'list', options: { fieldSelector: 'source=default-scheduler' } });
    assert.deepEqual(names(byComponent.body), ['web-1.17f0a'], 'source falls back to the reporting controller');
    const v1Selected = await h.req({ ...v1, verb: 'list', options: { fieldSelector: 'regarding.fieldPath=spec.containers{nginx}' } });
    assert.deepEqual(names(v1Selected.body), ['web-1.17f0b']);
    assert.equal((v1Selected.body.items as JsonObject[])[0]!.apiVersion, 'events.k8s.io/v1');
    const byController = await h.req({ ...v1, verb: 'list', options: { fieldSelector: 'reportingController=kubelet' } });
    assert.deepEqual(names(byController.body), ['web-1.17f0b']);
    await h.clock.advance(1);
    const cached = await h.req({ ...v1, verb: 'list', options: { resourceVersion: '0' } });
    assert.deepEqual((cached.body.items as JsonObject[]).map((i) => i.apiVersion), ['events.k8s.io/v1', 'events.k8s.io/v1']);
  });

  it('refuses field labels the group does not have', async () => {
    const res = await h.req({ ...v1, verb: 'list', options: { fieldSelector: 'involvedObject.name=web-1' } });
    assert.equal(res.code, 400);
    assert.equal(res.body.message, 'field label not supported: involvedObject.name');
    const coreRes = await h.req({ ...core, verb: 'list', options: { fieldSelector: 'regarding.name=web-1' } });
    assert.equal(coreRes.code, 400);
    assert.equal(coreRes.body.message, 'field label not supported: regarding.name');
  });

  it('watches through core/v1 what events.k8s.io/v1 writes, converted', async () => {
    const events: WatchEvent[] = [];
    const w = await h.server.watch({ ...core, verb: 'watch', options: { fieldSelector: 'involvedObject.kind=Pod' } }, (e) => events.push(e));
    await h.create(scheduled());
    await h.clock.advance(1);
    assert.deepEqual(events.map((e) => [e.type, e.object.apiVersion, e.object.message]), [['ADDED', 'v1', 'Successfully assigned shop/web-1 to kubesim-worker']]);
    w.stop();
  });

  it('updates through events.k8s.io/v1 an Event in storage (an event series)', async () => {
    await h.create(scheduled());
    const got = await h.req({ ...v1, verb: 'get', name: 'web-1.17f0a' });
    const series = { ...got.body, series: { count: 2, lastObservedTime: '2025-01-01T00:00:05.000000Z' } };
    const res = await h.req({ ...v1, verb: 'update', name: 'web-1.17f0a', body: { object: series } });
    assert.equal(res.code, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.series, { count: 2, lastObservedTime: '2025-01-01T00:00:05.000000Z' });
    const viaCore = await h.req({ ...core, verb: 'get', name: 'web-1.17f0a' });
    assert.deepEqual(viaCore.body.series, { count: 2, lastObservedTime: '2025-01-01T00:00:05.000000Z' });
  });

  it('validates each group with its own rules', async () => {
    const noTime = scheduled();
    delete noTime.eventTime;
    const res = await h.req({ ...v1, verb: 'create', body: { object: noTime } });
    assert.equal(res.code, 422);
    assert.equal(res.body.message, 'Event.events.k8s.io "web-1.17f0a" is invalid: eventTime: Required value');
    const legacy = pulled();
    legacy.involvedObject = { kind: 'Pod', namespace: 'other', name: 'web-1' };
    const coreRes = await h.req({ ...core, verb: 'create', body: { object: legacy } });
    assert.equal(coreRes.code, 422);
    assert.equal(coreRes.body.message, 'Event "web-1.17f0b" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace');
  });

  it('deletes through either group', async () => {
    await h.create(pulled());
    const res = await h.req({ ...v1, verb: 'delete', name: 'web-1.17f0b' });
    assert.equal(res.code, 200);
    assert.equal((await h.req({ ...core, verb: 'get', name: 'web-1.17f0b' })).code, 404);
  });
});
