import { strict as assert } from 'node:assert';
import { defaulted, pod, podSpec } from './defaulted';

// Tables after pkg/apis/core/v1/defaults_test.go (release-1.35): TestWorkloadDefaults,
// TestPodDefaults, TestSetDefaultPodSpecHostNetwork, TestSetDefaultRequestsPod,
// TestDefaultRequestIsNotSetForReplicationController, TestSetDefaultProbe,
// TestSetDefaultSchedulerName, TestSetDefaultObjectFieldSelectorAPIVersion,
// TestSetDefaultEnableServiceLinks, TestSetDefaultHostPathVolumeSource, TestSetDefaults_Volume.

/** A container with every defaulted substructure present and empty. */
function everyContainerField(): Record<string, unknown> {
  return {
    name: 'c',
    image: 'img:1',
    ports: [{ containerPort: 80 }],
    env: [
      { name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'B', valueFrom: { fileKeyRef: { volumeName: 'v', path: 'p', key: 'k' } } },
    ],
    livenessProbe: { httpGet: { port: 80 } },
    readinessProbe: { grpc: { port: 9090 } },
    startupProbe: { exec: { command: ['true'] } },
    lifecycle: { postStart: { httpGet: { port: 80 } }, preStop: { httpGet: { port: 80 } } },
  };
}

function everyContainerFieldDefaulted(): Record<string, unknown> {
  const probeTimings = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
  return {
    name: 'c',
    image: 'img:1',
    imagePullPolicy: 'IfNotPresent',
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    ports: [{ containerPort: 80, protocol: 'TCP' }],
    env: [
      { name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } },
      { name: 'B', valueFrom: { fileKeyRef: { volumeName: 'v', path: 'p', key: 'k', optional: false } } },
    ],
    livenessProbe: { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, ...probeTimings },
    readinessProbe: { grpc: { port: 9090, service: '' }, ...probeTimings },
    startupProbe: { exec: { command: ['true'] }, ...probeTimings },
    lifecycle: {
      postStart: { httpGet: { port: 80, path: '/', scheme: 'HTTP' } },
      preStop: { httpGet: { port: 80, path: '/', scheme: 'HTTP' } },
    },
  };
}

const everyVolume = [
  { name: 'empty' },
  { name: 'azure', azureDisk: { diskName: 'd', diskURI: 'u' } },
  { name: 'cm', configMap: { name: 'c' } },
  { name: 'dapi', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
  { name: 'eph', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'] } } } },
  { name: 'hp', hostPath: { path: '/data' } },
  { name: 'iscsi', iscsi: { targetPortal: 't', iqn: 'i', lun: 0 } },
  {
    name: 'proj',
    projected: {
      sources: [
        { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
        { serviceAccountToken: { path: 'token' } },
      ],
    },
  },
  { name: 'rbd', rbd: { monitors: ['m'], image: 'i' } },
  { name: 'sio', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'x' } } },
  { name: 'sec', secret: { secretName: 's' } },
  { name: 'img', image: { reference: 'quay.io/artifact:latest' } },
];

const everyVolumeDefaulted = [
  { name: 'empty', emptyDir: {} },
  { name: 'azure', azureDisk: { diskName: 'd', diskURI: 'u', cachingMode: 'ReadWrite', fsType: 'ext4', readOnly: false, kind: 'Shared' } },
  { name: 'cm', configMap: { name: 'c', defaultMode: 420 } },
  { name: 'dapi', downwardAPI: { defaultMode: 420, items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }] } },
  {
    name: 'eph',
    ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' } } },
  },
  { name: 'hp', hostPath: { path: '/data', type: '' } },
  { name: 'iscsi', iscsi: { targetPortal: 't', iqn: 'i', lun: 0, iscsiInterface: 'default' } },
  {
    name: 'proj',
    projected: {
      defaultMode: 420,
      sources: [
        { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }] } },
        { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
      ],
    },
  },
  { name: 'rbd', rbd: { monitors: ['m'], image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' } },
  { name: 'sio', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'x' }, storageMode: 'ThinProvisioned', fsType: 'xfs' } },
  { name: 'sec', secret: { secretName: 's', defaultMode: 420 } },
  { name: 'img', image: { reference: 'quay.io/artifact:latest', pullPolicy: 'Always' } },
];

const podSpecDefaults = {
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
  schedulerName: 'default-scheduler',
};

describe('defaults: PodSpec in templates and pods', () => {
  it('TestWorkloadDefaults: a pod template gets every PodSpec default and no pod-only one', () => {
    const template = {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 't' },
      template: {
        spec: {
          initContainers: [everyContainerField()],
          containers: [{ ...everyContainerField(), resources: { limits: { cpu: '1' } } }],
          ephemeralContainers: [everyContainerField()],
          volumes: everyVolume,
          hostNetwork: true,
        },
      },
    };
    const out = defaulted(template);
    assert.deepEqual(out.template, {
      spec: {
        ...podSpecDefaults,
        initContainers: [everyContainerFieldDefaulted()],
        // No requests from limits and no host ports outside a Pod.
        containers: [{ ...everyContainerFieldDefaulted(), resources: { limits: { cpu: '1' } } }],
        ephemeralContainers: [everyContainerFieldDefaulted()],
        volumes: everyVolumeDefaulted,
        hostNetwork: true,
      },
    });
  });

  it('TestPodDefaults: a pod also gets enableServiceLinks, requests from limits and host ports', () => {
    const spec = podSpec({
      initContainers: [{ ...everyContainerField(), resources: { limits: { memory: '1Gi' } } }],
      containers: [{ ...everyContainerField(), resources: { limits: { cpu: '1' } } }],
      volumes: everyVolume,
      hostNetwork: true,
    });
    const withHostPort = (c: Record<string, unknown>) => ({ ...c, ports: [{ containerPort: 80, protocol: 'TCP', hostPort: 80 }] });
    assert.deepEqual(spec, {
      ...podSpecDefaults,
      enableServiceLinks: true,
      initContainers: [withHostPort({ ...everyContainerFieldDefaulted(), resources: { limits: { memory: '1Gi' }, requests: { memory: '1Gi' } } })],
      containers: [withHostPort({ ...everyContainerFieldDefaulted(), resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } })],
      volumes: everyVolumeDefaulted,
      hostNetwork: true,
    });
  });

  it('keeps every field the user set', () => {
    const spec = podSpec({
      dnsPolicy: 'Default',
      restartPolicy: 'Never',
      securityContext: { runAsUser: 1000 },
      terminationGracePeriodSeconds: 0,
      schedulerName: 'my-scheduler',
      enableServiceLinks: false,
      containers: [
        {
          name: 'c',
          image: 'nginx',
          imagePullPolicy: 'Never',
          terminationMessagePath: '/tmp/msg',
          terminationMessagePolicy: 'FallbackToLogsOnError',
          ports: [{ containerPort: 53, protocol: 'UDP' }],
          livenessProbe: { tcpSocket: { port: 1 }, timeoutSeconds: 5, periodSeconds: 7, successThreshold: 2, failureThreshold: 9 },
        },
      ],
    });
    assert.equal(spec.dnsPolicy, 'Default');
    assert.equal(spec.restartPolicy, 'Never');
    assert.deepEqual(spec.securityContext, { runAsUser: 1000 });
    assert.equal(spec.terminationGracePeriodSeconds, 0);
    assert.equal(spec.schedulerName, 'my-scheduler');
    assert.equal(spec.enableServiceLinks, false);
    assert.deepEqual((spec.containers as unknown[])[0], {
      name: 'c',
      image: 'nginx',
      imagePullPolicy: 'Never',
      terminationMessagePath: '/tmp/msg',
      terminationMessagePolicy: 'FallbackToLogsOnError',
      ports: [{ containerPort: 53, protocol: 'UDP' }],
      livenessProbe: { tcpSocket: { port: 1 }, timeoutSeconds: 5, periodSeconds: 7, successThreshold: 2, failureThreshold: 9 },
    });
  });

  it('treats null and empty values as unset, as Go decoding does', () => {
    const spec = podSpec({
      dnsPolicy: '',
      restartPolicy: null,
      securityContext: null,
      containers: [{ name: 'c', image: 'nginx:1', imagePullPolicy: '', ports: [{ containerPort: 1, protocol: null }] }],
    });
    assert.equal(spec.dnsPolicy, 'ClusterFirst');
    assert.equal(spec.restartPolicy, 'Always');
    assert.deepEqual(spec.securityContext, {});
    const [c] = spec.containers as Record<string, unknown>[];
    assert.equal(c?.imagePullPolicy, 'IfNotPresent');
    assert.deepEqual(c?.ports, [{ containerPort: 1, protocol: 'TCP' }]);
  });

  it('TestSetDefaultPodSpecHostNetwork: host ports follow container ports only on the host network', () => {
    const ports = [{ containerPort: 8080 }, { containerPort: 9090, hostPort: 9999 }];
    const onHost = podSpec({ hostNetwork: true, containers: [{ name: 'c', image: 'i:1', ports }] });
    assert.deepEqual((onHost.containers as Record<string, unknown>[])[0]?.ports, [
      { containerPort: 8080, hostPort: 8080, protocol: 'TCP' },
      { containerPort: 9090, hostPort: 9999, protocol: 'TCP' },
    ]);
    assert.equal(onHost.dnsPolicy, 'ClusterFirst');
    const offHost = podSpec({ containers: [{ name: 'c', image: 'i:1', ports }] });
    assert.deepEqual((offHost.containers as Record<string, unknown>[])[0]?.ports, [
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 9090, hostPort: 9999, protocol: 'TCP' },
    ]);
  });

  it('TestSetDefaultRequestsPod: requests default to limits per resource, existing requests win', () => {
    const spec = podSpec({
      containers: [
        { name: 'a', image: 'i:1', resources: { limits: { cpu: '100m', memory: '1Gi' }, requests: { cpu: '10m' } } },
        { name: 'b', image: 'i:1', resources: { requests: { cpu: '10m' } } },
        { name: 'c', image: 'i:1', resources: { limits: {} } },
      ],
    });
    const resources = (spec.containers as Record<string, unknown>[]).map((c) => c.resources);
    assert.deepEqual(resources, [
      { limits: { cpu: '100m', memory: '1Gi' }, requests: { cpu: '10m', memory: '1Gi' } },
      { requests: { cpu: '10m' } },
      { limits: {} },
    ]);
  });

  it('TestDefaultRequestIsNotSetForReplicationController', () => {
    const rc = defaulted({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc' },
      spec: { template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i:1', resources: { limits: { cpu: '100m' } } }] } } },
    });
    const spec = rc.spec as { template: { spec: { containers: { resources: unknown }[] } } };
    assert.deepEqual(spec.template.spec.containers[0]?.resources, { limits: { cpu: '100m' } });
  });

  it('TestSetMinimumScalePod: container quantities are rounded up to milli units', () => {
    const spec = podSpec({
      containers: [{ name: 'c', image: 'i:1', resources: { limits: { cpu: '1n' }, requests: { memory: '1.5Gi', cpu: '0.5' } } }],
      overhead: { cpu: '100u' },
    });
    assert.deepEqual((spec.containers as Record<string, unknown>[])[0]?.resources, {
      limits: { cpu: '1m' },
      requests: { memory: '1536Mi', cpu: '500m' },
    });
    assert.deepEqual(spec.overhead, { cpu: '1m' });
  });

  it('TestSetDefaultProbe: only unset probe timings are defaulted', () => {
    const spec = podSpec({
      containers: [{ name: 'c', image: 'i:1', readinessProbe: { httpGet: { port: 1, path: '/healthz', scheme: 'HTTPS' }, periodSeconds: 3 } }],
    });
    assert.deepEqual((spec.containers as Record<string, unknown>[])[0]?.readinessProbe, {
      httpGet: { port: 1, path: '/healthz', scheme: 'HTTPS' },
      timeoutSeconds: 1,
      periodSeconds: 3,
      successThreshold: 1,
      failureThreshold: 3,
    });
  });

  it('TestSetDefaults_Volume: image volumes follow the image tag, explicit policies stay', () => {
    const spec = podSpec({
      containers: [{ name: 'c', image: 'i:1' }],
      volumes: [
        { name: 'a', image: { reference: 'artifact:v1' } },
        { name: 'b', image: { reference: 'artifact' } },
        { name: 'c', image: { reference: 'artifact', pullPolicy: 'Never' } },
      ],
    });
    assert.deepEqual(
      (spec.volumes as { image: { pullPolicy: string } }[]).map((v) => v.image.pullPolicy),
      ['IfNotPresent', 'Always', 'Never'],
    );
  });

  it('TestSetDefaultHostPathVolumeSource: an explicit type stays', () => {
    const spec = podSpec({ containers: [{ name: 'c', image: 'i:1' }], volumes: [{ name: 'h', hostPath: { path: '/x', type: 'Directory' } }] });
    assert.deepEqual(spec.volumes, [{ name: 'h', hostPath: { path: '/x', type: 'Directory' } }]);
  });

  it('an empty pod still gets its PodSpec defaults, as Go structs always exist', () => {
    const out = defaulted({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } });
    assert.deepEqual(out.spec, { ...podSpecDefaults, enableServiceLinks: true });
  });

  it('never throws on wrongly typed fields and leaves them for validation', () => {
    const weird = pod({ containers: 'nope', volumes: [1, null, { name: 'v', hostPath: 'x' }], securityContext: 'x', hostNetwork: true });
    const out = defaulted(weird);
    const spec = out.spec as Record<string, unknown>;
    assert.equal(spec.containers, 'nope');
    assert.equal(spec.securityContext, 'x');
    assert.deepEqual(spec.volumes, [1, null, { name: 'v', hostPath: 'x' }]);
  });
});
