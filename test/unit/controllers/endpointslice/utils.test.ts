/** k8s.io/endpointslice utils_test.go: podToEndpoint, ports, labels, address types, findPort; and the trackers. */
import { strict as assert } from 'node:assert';
import { endpointPorts, podToEndpoint } from '../../../../src/engine/controllers/endpointslice/endpoint';
import { findPort } from '../../../../src/engine/controllers/util/endpoint/pod';
import { selectedPods, servicesToUpdateOnPodChange } from '../../../../src/engine/controllers/util/endpoint/pod-services';
import { addressTypesForService, sliceLabels, slicePrefix } from '../../../../src/engine/controllers/endpointslice/slice';
import { EndpointSliceTracker } from '../../../../src/engine/controllers/endpointslice/tracker';
import { formatTriggerTime, TriggerTimeTracker } from '../../../../src/engine/controllers/util/endpoint/trigger-time';
import { CONTROLLER_NAME, type Node, type Pod, type Service } from '../../../../src/engine/controllers/util/types/endpoint';
import { newEmptySlice, newPod, newService } from './fixtures';
import { Indexer } from '../../../../src/engine/client/informer';

const node1: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'us-central1-a', 'topology.kubernetes.io/region': 'us-central1' } } };
const target = (name = 'pod1') => ({ kind: 'Pod', namespace: 'test', name, uid: 'uid-1' });

describe('controllers/endpointslice utils', () => {
  describe('TestPodToEndpoint', () => {
    const svc = newService('foo', 'test');
    const publishing: Service = { ...svc, spec: { ...svc.spec, publishNotReadyAddresses: true } };
    const hostnamePod = newPod(1, 'test', true);
    hostnamePod.spec!.subdomain = 'foo';
    hostnamePod.spec!.hostname = 'example-hostname';
    const multiIP = newPod(1, 'test', true);
    multiIP.status!.podIPs = [{ ip: '1.2.3.4' }, { ip: '1234::5678:0000:0000:9abc:def0' }];
    const cases: [string, Pod, Node | undefined, Service, object][] = [
      ['Ready pod', newPod(1, 'test', true), undefined, svc, { ready: true, serving: true, terminating: false }],
      ['Ready pod + publishNotReadyAddresses', newPod(1, 'test', true), undefined, publishing, { ready: true, serving: true, terminating: false }],
      ['Unready pod', newPod(1, 'test', false), undefined, svc, { ready: false, serving: false, terminating: false }],
      ['Unready pod + publishNotReadyAddresses', newPod(1, 'test', false), undefined, publishing, { ready: true, serving: false, terminating: false }],
      ['Ready terminating pod', newPod(1, 'test', true, true), undefined, svc, { ready: false, serving: true, terminating: true }],
      ['Not ready terminating pod', newPod(1, 'test', false, true), undefined, svc, { ready: false, serving: false, terminating: true }],
    ];
    for (const [name, pod, node, service, conditions] of cases) {
      it(name, () => {
        assert.deepEqual(podToEndpoint(pod, node, service, 'IPv4'), { addresses: ['10.0.0.5'], conditions, targetRef: target(), nodeName: 'node-1' });
      });
    }
    it('Ready pod + node labels: the zone', () => {
      assert.equal(podToEndpoint(newPod(1, 'test', true), node1, svc, 'IPv4').zone, 'us-central1-a');
    });
    it('Multi IP Ready pod: only the slice family', () => {
      assert.deepEqual(podToEndpoint(multiIP, node1, svc, 'IPv4').addresses, ['1.2.3.4']);
      assert.deepEqual(podToEndpoint(multiIP, node1, svc, 'IPv6').addresses, ['1234::5678:0:0:9abc:def0']);
    });
    it('Ready pod + hostname (subdomain names the Service)', () => {
      const ep = podToEndpoint(hostnamePod, node1, svc, 'IPv4');
      assert.deepEqual(Object.keys(ep), ['addresses', 'conditions', 'hostname', 'targetRef', 'nodeName', 'zone']);
      assert.equal(ep.hostname, 'example-hostname');
    });
  });

  describe('TestGetEndpointPorts and TestFindPort', () => {
    it('resolves named ports per pod, keeps appProtocol, drops ports the pod lacks', () => {
      const svc: Service = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's', namespace: 'test' },
        spec: {
          ports: [
            { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
            { name: 'https', port: 443, targetPort: 'https', protocol: 'TCP', appProtocol: 'https' },
            { name: 'dns', port: 53, targetPort: 'dns', protocol: 'UDP' },
          ],
        },
      };
      const pod = newPod(1, 'test', true);
      pod.spec!.containers = [{ name: 'c', ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }, { name: 'dns', containerPort: 5353, protocol: 'TCP' }] }];
      pod.spec!.initContainers = [{ name: 'sidecar', restartPolicy: 'Always', ports: [{ name: 'https', containerPort: 8443, protocol: 'TCP' }] }];
      assert.deepEqual(endpointPorts(svc, pod), [
        { name: 'http', protocol: 'TCP', port: 8080 },
        { name: 'https', protocol: 'TCP', port: 8443, appProtocol: 'https' },
      ]);
      assert.equal(findPort(pod, { port: 53, targetPort: 'dns', protocol: 'UDP' }), undefined);
      assert.equal(findPort(pod, { port: 80, targetPort: 9376, protocol: 'TCP' }), 9376);
    });
  });

  describe('TestSetEndpointSliceLabels', () => {
    it('mirrors Service labels, adds the reserved ones, marks headless Services', () => {
      const svc = newService('foo', 'test');
      svc.metadata.labels = { foo: 'bar', 'kubernetes.io/service-name': 'bad' };
      assert.deepEqual(sliceLabels(undefined, svc, CONTROLLER_NAME), {
        labels: { 'endpointslice.kubernetes.io/managed-by': CONTROLLER_NAME, foo: 'bar', 'kubernetes.io/service-name': 'foo' },
        changed: true,
      });
      const headless = { ...svc, spec: { ...svc.spec, clusterIP: 'None' } };
      const slice = newEmptySlice(1, svc);
      slice.metadata.labels = { foo: 'bar', 'kubernetes.io/service-name': 'foo' };
      const result = sliceLabels(slice, headless, CONTROLLER_NAME);
      assert.equal(result.changed, false);
      assert.equal(result.labels['service.kubernetes.io/headless'], '');
    });
    it('getEndpointSlicePrefix: "<svc>-" unless too long', () => {
      assert.equal(slicePrefix('web'), 'web-');
      assert.equal(slicePrefix('a'.repeat(254)), 'a'.repeat(254));
    });
  });

  describe('TestSupportedServiceAddressType', () => {
    const cases: [string, Service['spec'], string[]][] = [
      ['v4 family', { ipFamilies: ['IPv4'] }, ['IPv4']],
      ['dual stack', { ipFamilies: ['IPv6', 'IPv4'] }, ['IPv4', 'IPv6']],
      ['no families, v4 ClusterIP', { clusterIP: '10.0.0.10' }, ['IPv4']],
      ['no families, v6 ClusterIP', { clusterIP: '2000::1' }, ['IPv6']],
      ['no families, headless', { clusterIP: 'None' }, ['IPv4', 'IPv6']],
    ];
    for (const [name, spec, expected] of cases) {
      it(name, () => assert.deepEqual(addressTypesForService({ apiVersion: 'v1', kind: 'Service', metadata: {}, spec }), expected));
    }
  });

  describe('TriggerTimeTracker', () => {
    it('first sync: Service creation; then the earliest newer Ready transition; nothing when nothing changed', () => {
      const t = new TriggerTimeTracker();
      const svc = newService('foo', 'test');
      svc.metadata.creationTimestamp = '2025-01-01T00:00:00Z';
      const p1 = newPod(1, 'test', true);
      p1.status!.conditions![0]!.lastTransitionTime = '2025-01-01T00:00:10Z';
      assert.equal(t.compute(svc, [p1]), '2025-01-01T00:00:00Z');
      assert.equal(t.compute(svc, [p1]), undefined);
      const p2 = newPod(2, 'test', true);
      p2.status!.conditions![0]!.lastTransitionTime = '2025-01-01T00:00:30Z';
      const p1b = newPod(1, 'test', false);
      p1b.status!.conditions![0]!.lastTransitionTime = '2025-01-01T00:00:20Z';
      assert.equal(t.compute(svc, [p1b, p2]), '2025-01-01T00:00:20Z');
      t.deleteService('test', 'foo');
      assert.equal(t.compute(svc, [p1b, p2]), '2025-01-01T00:00:00Z');
    });
    it('formats as RFC3339Nano', () => {
      assert.equal(formatTriggerTime(Date.parse('2025-01-01T00:00:05.120Z')), '2025-01-01T00:00:05.12Z');
      assert.equal(formatTriggerTime(Date.parse('2025-01-01T00:00:05Z')), '2025-01-01T00:00:05Z');
    });
  });

  describe('EndpointSliceTracker (endpointslice_tracker_test.go)', () => {
    const svc = newService('foo', 'test');
    const slice = (gen: number, uid = 'a') => {
      const s = newEmptySlice(1, svc);
      s.metadata.uid = uid;
      s.metadata.generation = gen;
      s.metadata.labels = { 'kubernetes.io/service-name': 'foo' };
      return s;
    };
    it('ShouldSync, StaleSlices, ExpectDeletion, HandleDeletion', () => {
      const t = new EndpointSliceTracker();
      assert.ok(t.shouldSync(slice(1)));
      assert.ok(!t.staleSlices(svc, []));
      t.update(slice(2));
      assert.ok(!t.shouldSync(slice(2)));
      assert.ok(t.shouldSync(slice(3)));
      assert.ok(t.staleSlices(svc, [slice(1)]));
      assert.ok(t.staleSlices(svc, []));
      assert.ok(!t.staleSlices(svc, [slice(2)]));
      t.expectDeletion(slice(2));
      assert.ok(t.staleSlices(svc, [slice(2)]));
      assert.ok(t.handleDeletion(slice(2)));
      t.update(slice(1, 'b'));
      assert.ok(!t.handleDeletion(slice(1, 'b')));
    });
  });

  describe('GetServicesToUpdateOnPodChange', () => {
    const a = { ...newService('a', 'test'), spec: { selector: { app: 'a' } } };
    const b = { ...newService('b', 'test'), spec: { selector: { app: 'b' } } };
    const none: Service = { ...newService('none', 'test'), spec: {} };
    const services = [a, b, none];
    const pod = (rv: string, labels: Record<string, string>, ready = true): Pod => {
      const p = newPod(1, 'test', ready);
      p.metadata.resourceVersion = rv;
      p.metadata.labels = labels;
      return p;
    };
    it('resync and irrelevant changes sync nothing; readiness syncs matching Services; label moves sync both sides', () => {
      assert.deepEqual([...servicesToUpdateOnPodChange(services, pod('1', { app: 'a' }), pod('1', { app: 'a' }, false))], []);
      assert.deepEqual([...servicesToUpdateOnPodChange(services, pod('1', { app: 'a' }), pod('2', { app: 'a' }))], []);
      assert.deepEqual([...servicesToUpdateOnPodChange(services, pod('1', { app: 'a' }), pod('2', { app: 'a' }, false))], ['test/a']);
      assert.deepEqual([...servicesToUpdateOnPodChange(services, pod('1', { app: 'a' }), pod('2', { app: 'b' }))].sort(), ['test/a', 'test/b']);
      assert.deepEqual([...servicesToUpdateOnPodChange(services, pod('1', { app: 'a' }), pod('2', { app: 'a', x: 'y' }))], []);
    });
  });

  describe('selectedPods', () => {
    it('lists the pods of the namespace the selector selects; none for ExternalName or without a selector', () => {
      const pods = new Indexer<Pod>();
      const other = newPod(2, 'elsewhere', true);
      const unlabelled = newPod(3, 'test', true);
      unlabelled.metadata.labels = { foo: 'baz' };
      for (const p of [newPod(1, 'test', true), other, unlabelled]) pods.set(p);
      const svc = newService('foo', 'test');
      assert.deepEqual(selectedPods(svc, pods)?.map((p) => p.metadata.name), ['pod1']);
      assert.equal(selectedPods({ ...svc, spec: { ...svc.spec, selector: undefined } }, pods), undefined);
      assert.equal(selectedPods({ ...svc, spec: { ...svc.spec, type: 'ExternalName' } }, pods), undefined);
      assert.deepEqual(selectedPods({ ...svc, spec: { ...svc.spec, selector: {} } }, pods)?.map((p) => p.metadata.name), ['pod1', 'pod3']);
    });
  });
});
