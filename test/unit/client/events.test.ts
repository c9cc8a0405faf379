/**
 * Event recording: client-go's events_cache_test.go tables for the correlator (aggregation,
 * counting, spam filtering) on the virtual clock, and the recorders writing through a real API
 * server (names, fields, count patches, events.k8s.io series).
 */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import { harness, type Harness } from '../apiserver/harness';
import { Client, componentUserAgent } from '../../../src/engine/client/client';
import { CONFIGMAPS, EVENTS, EVENTS_V1, NAMESPACES } from '../../../src/engine/client/resources';
import {
  AGGREGATE_MESSAGE_PREFIX,
  EventBroadcaster,
  EventCorrelator,
  EventsV1Broadcaster,
  getPartialReference,
  type CoreEvent,
  type EventsV1Event,
  type ObjectReference,
} from '../../../src/engine/client/events';
import { controllerUser, SCHEDULER_USER } from '../../../src/engine/apiserver/authn/user';
import type { KubeObject } from '../../../src/engine/api/types';
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';

const ref = (kind: string, name: string, namespace: string): ObjectReference => ({
  kind,
  name,
  namespace,
  uid: 'C934D34AFB20242',
  apiVersion: 'version',
  fieldPath: 'spec.containers{mycontainer}',
});

function makeEvent(clock: Clock, reason: string, message: string, involvedObject: ObjectReference): CoreEvent {
  const t = clock.rfc3339();
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${involvedObject.name}.x`, namespace: involvedObject.namespace ?? '' },
    involvedObject,
    reason,
    message,
    source: { component: 'kubelet', host: 'kublet.node1' },
    firstTimestamp: t,
    lastTimestamp: t,
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
  };
}

describe('client/events: EventCorrelator (events_cache_test.go)', () => {
  interface Scenario {
    previous: (clock: Clock) => CoreEvent[];
    event: (clock: Clock) => CoreEvent;
    intervalSeconds: number;
    expect?: { reason: string; message: string; count: number; fieldPath?: string };
    skip?: boolean;
  }
  const pod = ref('Pod', 'my-pod', 'my-ns');
  const similarRef = { ...pod, fieldPath: 'spec.containers{container1}' };
  const repeat = (n: number, f: (clock: Clock, i: number) => CoreEvent) => (clock: Clock) => Array.from({ length: n }, (_, i) => f(clock, i));
  const similar = (clock: Clock, i: number): CoreEvent => makeEvent(clock, 'similar', `similar message-${i}-similar message`, similarRef);
  const scenarios: Record<string, Scenario> = {
    'create-a-single-event': {
      previous: () => [],
      event: (c) => makeEvent(c, 'first', 'i am first', pod),
      intervalSeconds: 5,
      expect: { reason: 'first', message: 'i am first', count: 1 },
    },
    'the-same-event-should-just-count': {
      previous: repeat(1, (c) => makeEvent(c, 'duplicate', 'me again', pod)),
      event: (c) => makeEvent(c, 'duplicate', 'me again', pod),
      intervalSeconds: 5,
      expect: { reason: 'duplicate', message: 'me again', count: 2 },
    },
    'the-same-event-should-just-count-even-if-more-than-aggregate': {
      previous: repeat(10, (c) => makeEvent(c, 'duplicate', 'me again', pod)),
      event: (c) => makeEvent(c, 'duplicate', 'me again', pod),
      intervalSeconds: 30,
      expect: { reason: 'duplicate', message: 'me again', count: 11 },
    },
    'the-same-event-is-spam-if-happens-too-frequently': {
      previous: repeat(26, (c) => makeEvent(c, 'duplicate', 'me again', pod)),
      event: (c) => makeEvent(c, 'duplicate', 'me again', pod),
      intervalSeconds: 1,
      skip: true,
    },
    'create-many-unique-events': {
      previous: repeat(30, (c, i) => makeEvent(c, `reason-${i}`, `message-${i}`, ref('Pod', `pod-${i}`, `ns-${i}`))),
      event: (c) => makeEvent(c, 'unique', 'snowflake', pod),
      intervalSeconds: 5,
      expect: { reason: 'unique', message: 'snowflake', count: 1 },
    },
    'similar-events-should-aggregate-event': {
      previous: repeat(9, similar),
      event: (c) => makeEvent(c, 'similar', 'similar message', similarRef),
      intervalSeconds: 5,
      expect: { reason: 'similar', message: '(combined from similar events): similar message', count: 1, fieldPath: 'spec.containers{container1}' },
    },
    'similar-events-many-times-should-count-the-aggregate': {
      previous: repeat(10, similar),
      event: (c) => makeEvent(c, 'similar', 'similar message', similarRef),
      intervalSeconds: 5,
      expect: { reason: 'similar', message: '(combined from similar events): similar message', count: 2 },
    },
    'events-from-different-containers-do-not-aggregate': {
      previous: repeat(1, (c) => makeEvent(c, 'similar', 'similar message', { ...pod, fieldPath: 'spec.containers{container2}' })),
      event: (c) => makeEvent(c, 'similar', 'similar message', similarRef),
      intervalSeconds: 5,
      expect: { reason: 'similar', message: 'similar message', count: 1 },
    },
    // Upstream's test clock moves on with every reading; here time moves just past the 10-minute window.
    'similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate': {
      previous: repeat(9, similar),
      event: (c) => makeEvent(c, 'similar', 'similar message', similarRef),
      intervalSeconds: 601,
      expect: { reason: 'similar', message: 'similar message', count: 1 },
    },
  };

  for (const [name, s] of Object.entries(scenarios)) {
    it(name, async () => {
      const clock = new Clock();
      const correlator = new EventCorrelator({ clock, random: new Random('events') });
      const previous = s.previous(clock);
      let first = '';
      for (const e of previous) {
        const fresh = { ...e, firstTimestamp: clock.rfc3339(), lastTimestamp: clock.rfc3339() };
        const r = correlator.correlate(fresh);
        if (!r.skip) correlator.updateState(r.event!);
        first ||= fresh.firstTimestamp;
        await clock.advance(s.intervalSeconds * 1000);
      }
      const event = s.event(clock);
      const result = correlator.correlate(event);
      assert.equal(result.skip, s.skip === true);
      if (s.skip) return;
      const e = result.event!;
      assert.equal(e.reason, s.expect!.reason);
      assert.equal(e.message, s.expect!.message);
      assert.equal(e.count, s.expect!.count);
      assert.deepEqual(e.source, { component: 'kubelet', host: 'kublet.node1' });
      if (s.expect!.fieldPath) assert.equal(e.involvedObject.fieldPath, s.expect!.fieldPath);
      if (e.count > 1) {
        assert.notEqual(e.firstTimestamp, e.lastTimestamp, 'a counted event keeps its first timestamp');
        assert.deepEqual(result.patch, { count: e.count, lastTimestamp: e.lastTimestamp, message: e.message });
      } else {
        assert.equal(e.firstTimestamp, e.lastTimestamp);
        assert.equal(result.patch, undefined);
      }
    });
  }

  it('TestEventSpamFilter: the default filter counts by source and object, a custom one by reason', () => {
    const byReason = (e: CoreEvent): string => [e.source.component, e.source.host, e.involvedObject.kind, e.involvedObject.namespace, e.involvedObject.name, e.involvedObject.uid, e.involvedObject.apiVersion, e.reason].join('');
    const cases: [string, ((e: CoreEvent) => string) | undefined, string, string, boolean][] = [
      ['default filter: same object, other reason is spam', undefined, 'duplicate', 'me again', true],
      ['custom filter: other reason is not spam', byReason, 'duplicate', 'me again', false],
      ['custom filter: same reason, other message is spam', byReason, 'original', 'me again', true],
    ];
    for (const [name, spamKey, reason, message, skip] of cases) {
      const clock = new Clock();
      const correlator = new EventCorrelator({ clock, random: new Random('events'), burst: 1, spamKey });
      const pod = ref('Pod', 'my-pod', 'my-ns');
      const r = correlator.correlate(makeEvent(clock, 'original', 'i am first', pod));
      assert.ok(!r.skip);
      correlator.updateState(r.event!);
      assert.equal(correlator.correlate(makeEvent(clock, reason, message, pod)).skip, skip, name);
    }
  });

  it('the spam filter refills one event every 5 minutes after a burst of 25', async () => {
    const clock = new Clock();
    const correlator = new EventCorrelator({ clock, random: new Random('events') });
    const pod = ref('Pod', 'p', 'ns');
    const results = Array.from({ length: 26 }, (_, i) => correlator.correlate(makeEvent(clock, `r${i}`, 'm', pod)).skip);
    assert.deepEqual(results.filter((s) => !s).length, 25);
    assert.ok(results[25]);
    await clock.advance(299_000);
    assert.ok(correlator.correlate(makeEvent(clock, 'later', 'm', pod)).skip);
    await clock.advance(1_000);
    assert.ok(!correlator.correlate(makeEvent(clock, 'later', 'm', pod)).skip);
  });
});

async function setup(): Promise<{ h: Harness; client: Client; target: KubeObject }> {
  const h = await harness();
  const client = new Client({ server: h.server, user: controllerUser('deployment-controller'), userAgent: componentUserAgent('kube-controller-manager', 'deployment-controller') });
  await client.resource(NAMESPACES).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const target = await client.resource(CONFIGMAPS, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web' } });
  return { h, client, target };
}

describe('client/events: core/v1 recorder', () => {
  it('writes an event named <object>.<hex unix nanos> with the source and reporting fields', async () => {
    const { h, client, target } = await setup();
    const recorder = new EventBroadcaster({ client, clock: h.clock, random: new Random('e') }).newRecorder({ component: 'deployment-controller' });
    recorder.event(target, 'Normal', 'ScalingReplicaSet', 'Scaled up replica set web-5d4f8b7c9 from 0 to 3', 7);
    await h.clock.settle();
    const { items } = await client.resource<CoreEvent & KubeObject>(EVENTS, 'default').list();
    assert.equal(items.length, 1);
    const e = items[0]!;
    const nanos = (BigInt(h.clock.now()) * 1_000_000n).toString(16);
    assert.equal(e.metadata.name, `web.${nanos}`);
    assert.equal(e.metadata.name, 'web.1816687ec0570000');
    assert.deepEqual(e.involvedObject, { kind: 'ConfigMap', namespace: 'default', name: 'web', uid: target.metadata.uid, apiVersion: 'v1', resourceVersion: target.metadata.resourceVersion });
    assert.equal(e.reason, 'ScalingReplicaSet');
    assert.equal(e.type, 'Normal');
    assert.equal(e.count, 1);
    assert.deepEqual(e.source, { component: 'deployment-controller' });
    assert.equal(e.reportingComponent, 'deployment-controller');
    assert.equal(e.reportingInstance, '');
    assert.equal(e.firstTimestamp, '2025-01-01T00:00:00Z');
    const write = h.server.trace.records().find((r): r is ApiRequestRecord => r.type === 'api.request' && r.resource === 'events')!;
    assert.equal(write.cause, 7);
    assert.equal(write.user, 'system:serviceaccount:kube-system:deployment-controller');
    await h.close();
  });

  it('counts a repeated event with a strategic merge patch; combines similar ones after 10', async () => {
    const { h, client, target } = await setup();
    const recorder = new EventBroadcaster({ client, clock: h.clock, random: new Random('e') }).newRecorder({ component: 'kubelet', host: 'node-1' });
    const container = getPartialReference(target, 'spec.containers{app}');
    recorder.event(container, 'Warning', 'BackOff', 'Back-off restarting failed container app in pod web_default(uid)');
    await h.clock.advance(10_000);
    recorder.event(container, 'Warning', 'BackOff', 'Back-off restarting failed container app in pod web_default(uid)');
    await h.clock.settle();
    const events = client.resource<CoreEvent & KubeObject>(EVENTS, 'default');
    let { items } = await events.list();
    assert.equal(items.length, 1);
    assert.equal(items[0]!.count, 2);
    assert.equal(items[0]!.firstTimestamp, '2025-01-01T00:00:00Z');
    assert.equal(items[0]!.lastTimestamp, '2025-01-01T00:00:10Z');
    assert.equal(items[0]!.reportingInstance, 'node-1');
    const verbs = h.server.trace.records().filter((r): r is ApiRequestRecord => r.type === 'api.request' && r.resource === 'events' && r.verb !== 'list').map((r) => `${r.verb} ${r.code}`);
    assert.deepEqual(verbs, ['create 201', 'patch 200']);

    for (let i = 0; i < 10; i++) recorder.event(target, 'Normal', 'Pulled', `Successfully pulled image "nginx:1.${i}"`);
    await h.clock.settle();
    ({ items } = await events.list());
    const pulled = items.filter((e) => e.reason === 'Pulled');
    assert.equal(pulled.length, 10);
    const combined = pulled.filter((e) => e.message.startsWith(AGGREGATE_MESSAGE_PREFIX));
    assert.deepEqual(combined.map((e) => e.message), ['(combined from similar events): Successfully pulled image "nginx:1.9"']);
    assert.equal(combined[0]!.reportingComponent, '', 'the combined event lacks the reporting fields, as upstream');
    await h.close();
  });

  it('gives events made at one virtual instant distinct names, one nanosecond apart', async () => {
    const { h, client, target } = await setup();
    const recorder = new EventBroadcaster({ client, clock: h.clock, random: new Random('e') }).newRecorder({ component: 'replicaset-controller' });
    recorder.event(target, 'Normal', 'SuccessfulCreate', 'Created pod: web-abcde');
    recorder.event(target, 'Normal', 'SuccessfulCreate', 'Created pod: web-fghij');
    await h.clock.settle();
    const names = (await client.resource(EVENTS, 'default').list()).items.map((e) => e.metadata.name);
    assert.deepEqual(names, ['web.1816687ec0570000', 'web.1816687ec0570001']);
    await h.close();
  });

  it('drops events of an unknown type', async () => {
    const { h, client, target } = await setup();
    const recorder = new EventBroadcaster({ client, clock: h.clock, random: new Random('e') }).newRecorder({ component: 'x' });
    recorder.event(target, 'Info' as 'Normal', 'R', 'm');
    await h.clock.settle();
    assert.equal((await client.resource(EVENTS, 'default').list()).items.length, 0);
    await h.close();
  });
});

describe('client/events: events.k8s.io/v1 recorder (kube-scheduler)', () => {
  it('writes an event, patches a series on the second occurrence, counts in memory, and finishes the series after 6 quiet minutes', async () => {
    const { h, target } = await setup();
    const client = new Client({ server: h.server, user: SCHEDULER_USER, userAgent: componentUserAgent('kube-scheduler') });
    const broadcaster = new EventsV1Broadcaster({ client, clock: h.clock, random: new Random('e') });
    broadcaster.start();
    const recorder = broadcaster.newRecorder('default-scheduler', 'control-plane');
    const msg = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
    recorder.eventf(target, undefined, 'Warning', 'FailedScheduling', 'Scheduling', msg);
    await h.clock.settle();
    const events = client.resource<EventsV1Event & KubeObject>(EVENTS_V1, 'default');
    let [e] = (await events.list()).items;
    assert.ok(e);
    assert.equal(e.reportingController, 'default-scheduler');
    assert.equal(e.reportingInstance, 'default-scheduler-control-plane');
    assert.equal(e.action, 'Scheduling');
    assert.equal(e.note, msg);
    assert.equal(e.eventTime, '2025-01-01T00:00:00.000000Z');
    assert.equal(e.series, undefined);

    await h.clock.advance(1000);
    recorder.eventf(target, undefined, 'Warning', 'FailedScheduling', 'Scheduling', msg);
    await h.clock.advance(1000);
    recorder.eventf(target, undefined, 'Warning', 'FailedScheduling', 'Scheduling', msg);
    await h.clock.advance(0);
    [e] = (await events.list()).items;
    assert.deepEqual(e!.series, { count: 2, lastObservedTime: '2025-01-01T00:00:01.000000Z' });

    await h.clock.advance(6 * 60_000);
    await h.clock.advance(6 * 60_000);
    [e] = (await events.list()).items;
    assert.deepEqual(e!.series, { count: 3, lastObservedTime: '2025-01-01T00:00:02.000000Z' });
    const verbs = h.server.trace.records().filter((r): r is ApiRequestRecord => r.type === 'api.request' && r.resource === 'events' && r.verb !== 'list').map((r) => `${r.verb} ${r.code}`);
    assert.deepEqual(verbs, ['create 201', 'patch 200', 'patch 200']);
    broadcaster.shutdown();
    await h.close();
  });
});
