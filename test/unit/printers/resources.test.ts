import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import { customResourcePrinter, defaultPrinter, printerFor, printTable } from '../../../src/engine/printers';

const NOW = Date.parse('2025-01-01T01:00:00Z');
const created = '2025-01-01T00:00:00Z';
const obj = (apiVersion: string, kind: string, name: string, rest: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name, namespace: 'default', creationTimestamp: created, ...meta },
  ...rest,
});
const row = (group: string, resource: string, o: KubeObject) => printTable(printerFor(group, resource), [o], NOW).rows[0]!.cells;
const headers = (group: string, resource: string) => printTable(printerFor(group, resource), [], NOW).columnDefinitions!.map((c) => c.name);

describe('printers: resources', () => {
  it('deployments: READY ready/desired, UP-TO-DATE, AVAILABLE, AGE, then containers, images, selector', () => {
    assert.deepEqual(headers('apps', 'deployments'), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
    const d = obj('apps/v1', 'Deployment', 'web', {
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { spec: { containers: [{ name: 'a', image: 'nginx:1' }, { name: 'b', image: 'busybox' }] } } },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    });
    assert.deepEqual(row('apps', 'deployments', d), ['web', '2/3', 3, 2, '60m', 'a,b', 'nginx:1,busybox', 'app=web']);
  });

  it('services: cluster IP, external IP by type, ports with node ports', () => {
    const svc = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) => row('', 'services', obj('v1', 'Service', 's', { spec, status }));
    const ports = [{ port: 80, protocol: 'TCP', nodePort: 30080 }, { port: 53, protocol: 'UDP' }];
    assert.deepEqual(svc({ type: 'ClusterIP', clusterIPs: ['10.96.0.10'], ports: [{ port: 80, protocol: 'TCP' }], selector: { app: 'x' } }), ['s', 'ClusterIP', '10.96.0.10', '<none>', '80/TCP', '60m', 'app=x']);
    assert.deepEqual(svc({ type: 'NodePort', clusterIPs: ['10.96.0.11'], ports }).slice(1, 5), ['NodePort', '10.96.0.11', '<none>', '80:30080/TCP,53/UDP']);
    assert.equal(svc({ type: 'LoadBalancer', clusterIPs: ['10.96.0.12'] })[3], '<pending>');
    assert.equal(svc({ type: 'LoadBalancer' }, { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { hostname: 'lb.example' }] } })[3], '1.2.3.4,lb.example');
    assert.deepEqual(svc({ type: 'ExternalName', externalName: 'db.example.com' }).slice(2, 5), ['<none>', 'db.example.com', '<none>']);
  });

  it('nodes: Ready/NotReady/Unknown, SchedulingDisabled, roles from labels', () => {
    const node = (conditions: unknown[], unschedulable: boolean, labels: Record<string, string>) =>
      row('', 'nodes', obj('v1', 'Node', 'n', { spec: { unschedulable }, status: { conditions, nodeInfo: { kubeletVersion: 'v1.35.0' }, addresses: [{ type: 'InternalIP', address: '172.18.0.2' }] } }, { labels }));
    assert.deepEqual(node([{ type: 'Ready', status: 'True' }], false, { 'node-role.kubernetes.io/control-plane': '' }).slice(0, 6), ['n', 'Ready', 'control-plane', '60m', 'v1.35.0', '172.18.0.2']);
    assert.equal(node([{ type: 'Ready', status: 'Unknown' }], true, {})[1], 'NotReady,SchedulingDisabled');
    assert.deepEqual(node([], false, { 'kubernetes.io/role': 'infra', 'node-role.kubernetes.io/worker': '' }).slice(1, 3), ['Unknown', 'infra,worker']);
  });

  it('events: LAST SEEN TYPE REASON OBJECT MESSAGE, series counts', () => {
    assert.deepEqual(headers('', 'events'), ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
    const ev = obj('v1', 'Event', 'web.1', {
      involvedObject: { kind: 'Deployment', name: 'web' },
      type: 'Normal',
      reason: 'ScalingReplicaSet',
      message: 'Scaled up replica set web-1 from 0 to 2 ',
      source: { component: 'deployment-controller' },
      firstTimestamp: '2025-01-01T00:50:00Z',
      lastTimestamp: '2025-01-01T00:58:00Z',
      count: 3,
    });
    assert.deepEqual(row('', 'events', ev), ['2m', 'Normal', 'ScalingReplicaSet', 'deployment/web', '', 'deployment-controller', 'Scaled up replica set web-1 from 0 to 2', '10m', 3, 'web.1']);
    const v1 = obj('events.k8s.io/v1', 'Event', 'p.2', {
      regarding: { kind: 'Pod', name: 'p' },
      note: 'Successfully assigned default/p to n1',
      reason: 'Scheduled',
      type: 'Normal',
      eventTime: '2025-01-01T00:59:00.000000Z',
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-n0',
    });
    assert.deepEqual(row('events.k8s.io', 'events', v1).slice(0, 7), ['60s', 'Normal', 'Scheduled', 'pod/p', '', 'default-scheduler, default-scheduler-n0', 'Successfully assigned default/p to n1']);
  });

  it('jobs and cronjobs: status, completions, duration; schedule, suspend, last schedule', () => {
    const job = obj('batch/v1', 'Job', 'j', {
      spec: { completions: 3, template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
      status: { succeeded: 3, startTime: '2025-01-01T00:10:00Z', completionTime: '2025-01-01T00:12:05Z', conditions: [{ type: 'Complete', status: 'True' }] },
    });
    assert.deepEqual(row('batch', 'jobs', job).slice(0, 5), ['j', 'Complete', '3/3', '2m5s', '60m']);
    const running = obj('batch/v1', 'Job', 'k', { spec: { parallelism: 2 }, status: { startTime: '2025-01-01T00:59:30Z' } });
    assert.deepEqual(row('batch', 'jobs', running).slice(1, 4), ['Running', '0/1 of 2', '30s']);
    const cj = obj('batch/v1', 'CronJob', 'c', { spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: {} } }, status: { active: [{}], lastScheduleTime: '2025-01-01T00:55:00Z' } });
    assert.deepEqual(row('batch', 'cronjobs', cj).slice(0, 7), ['c', '*/5 * * * *', '<none>', 'False', 1, '5m', '60m']);
  });

  it('pdbs and hpas', () => {
    const pdb = obj('policy/v1', 'PodDisruptionBudget', 'p', { spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 1 } });
    assert.deepEqual(row('policy', 'poddisruptionbudgets', pdb), ['p', '50%', 'N/A', 1, '60m']);
    const hpa = obj('autoscaling/v2', 'HorizontalPodAutoscaler', 'h', {
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] },
      status: { currentReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42 } } }] },
    });
    assert.deepEqual(row('autoscaling', 'horizontalpodautoscalers', hpa), ['h', 'Deployment/web', 'cpu: 42%/80%', '1', 5, 2, '60m']);
  });

  it('kinds without a printer get NAME and CREATED AT; custom resources their CRD columns', () => {
    assert.equal(printerFor('rbac.authorization.k8s.io', 'clusterroles'), defaultPrinter);
    const role = obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'admin', {});
    const t = printTable(defaultPrinter, [role], NOW);
    assert.deepEqual(t.columnDefinitions!.map((c) => [c.name, c.type]), [['Name', 'string'], ['Created At', 'date']]);
    assert.deepEqual(t.rows[0]!.cells, ['admin', '2025-01-01T00:00:00Z']);
    const widget = obj('example.com/v1', 'Widget', 'w', { spec: { size: 3, color: 'red' } });
    const printer = customResourcePrinter([
      { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
      { name: 'Color', type: 'string', jsonPath: '.spec.color', priority: 1 },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ]);
    assert.deepEqual(printTable(printer, [widget], NOW).rows[0]!.cells, ['w', 3, 'red', '60m']);
    assert.equal(printTable(printer, [], NOW).columnDefinitions![1]!.description, 'Custom resource definition column (in JSONPath format): .spec.size');
    assert.deepEqual(printTable(customResourcePrinter(), [widget], NOW).rows[0]!.cells, ['w', '60m']);
  });

  it('rows carry the object, its metadata, or nothing (includeObject)', () => {
    const cm = obj('v1', 'ConfigMap', 'c', { data: { a: '1' }, binaryData: { b: 'AA==' } });
    const printer = printerFor('', 'configmaps');
    assert.deepEqual(printTable(printer, [cm], NOW).rows[0], { cells: ['c', 2, '60m'], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cm.metadata } });
    assert.equal(printTable(printer, [cm], NOW, { includeObject: 'Object' }).rows[0]!.object, cm);
    assert.equal(printTable(printer, [cm], NOW, { includeObject: 'None' }).rows[0]!.object, null);
    assert.equal(printTable(printer, [cm], NOW, { noHeaders: true }).columnDefinitions, null);
  });
});
