/**
 * `npm run bench -- validate [--json]`: how fast `kubesim validate` checks manifests, and how
 * many writes the API server takes from a running cluster.
 * - throughput: a generated set of 10,000 mixed manifests (Deployments, Services, ConfigMaps,
 *   Secrets, Jobs, ServiceAccounts, a few with mistakes) validated in one process, as the CLI does
 *   it (parse, dry-run through the full pipeline, store), in resources per second;
 * - latency: p50/p99 of one dry-run create of a 300-line Deployment through the pipeline;
 * - write mix: what one pod costs a cluster (the ReplicaSet controller creates it, the scheduler
 *   binds it and records the Scheduled event, the kubelet patches its status), each request as
 *   its component with Node and RBAC authorization, through ApiServer.handle on the memory store,
 *   in writes per second.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator, createValidationCluster } from '../src/engine/validator/validator';
import { schemaForKind } from '../src/engine/api/openapi';
import { kubernetesDataDir } from '../src/engine/api/openapi/data-dir';
import { ADMIN_USER, SCHEDULER_USER, controllerUser, nodeUser } from '../src/engine/apiserver/authn/user';
import { bootstrapSystemObjects } from '../src/engine/apiserver/bootstrap';
import { parseManifest } from '../src/engine/apiserver/decode';
import type { ApiRequest } from '../src/engine/apiserver/request';
import { createApiServer, type ApiServer } from '../src/engine/apiserver/server';
import { Clock } from '../src/engine/clock';
import { nodeAndRbac } from '../src/engine/cluster';
import { Random } from '../src/engine/random';
import { createStore } from '../src/engine/store';
import { Reporter, nowMs, percentile, type BenchSuite } from './report';

const THROUGHPUT_DOCUMENTS = 10_000;
const LATENCY_RUNS = 2_000;
const WRITE_MIX_PODS = 5_000;
const WRITE_MIX_NODES = 50;

function deployment(i: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-${i}
  labels: {app: web-${i}, tier: frontend}
spec:
  replicas: ${(i % 5) + 1}
  selector:
    matchLabels: {app: web-${i}}
  template:
    metadata:
      labels: {app: web-${i}, tier: frontend}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - {name: http, containerPort: 80}
        resources:
          requests: {cpu: 100m, memory: 128Mi}
          limits: {cpu: 500m, memory: 256Mi}
        readinessProbe:
          httpGet: {path: /, port: http}
`;
}

function mixed(i: number): string {
  switch (i % 6) {
    case 0:
      return deployment(i);
    case 1:
      return `apiVersion: v1
kind: Service
metadata:
  name: svc-${i}
spec:
  selector: {app: web-${i - 1}}
  ports:
  - {port: 80, targetPort: http}
`;
    case 2:
      return `apiVersion: v1
kind: ConfigMap
metadata:
  name: config-${i}
data:
  app.properties: "mode=${i % 2 === 0 ? 'fast' : 'safe'}"
  LOG_LEVEL: info
`;
    case 3:
      return `apiVersion: v1
kind: Secret
metadata:
  name: secret-${i}
type: Opaque
stringData:
  password: s3cret-${i}
`;
    case 4:
      return `apiVersion: batch/v1
kind: Job
metadata:
  name: job-${i}
spec:
  backoffLimit: ${i % 10 === 4 ? -1 : 3}
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: work
        image: busybox:1.36
        command: [sh, -c, "echo ${i}"]
`;
    default:
      return `apiVersion: v1
kind: ServiceAccount
metadata:
  name: sa-${i}
`;
  }
}

/** A Deployment of about 300 lines: eight containers with env, ports, probes, mounts and volumes. */
function bigDeployment(): string {
  const containers: string[] = [];
  for (let c = 0; c < 8; c++) {
    containers.push(`      - name: c${c}
        image: registry.example.com/team/app-${c}:1.${c}.0
        imagePullPolicy: IfNotPresent
        args: ["--port=${8080 + c}", "--verbose"]
        ports:
        - name: http-${c}
          containerPort: ${8080 + c}
          protocol: TCP
        env:
        - name: MODE
          value: production
        - name: SLOT
          value: "${c}"
        - name: POD_NAME
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        - name: CONFIG
          valueFrom:
            configMapKeyRef:
              name: settings
              key: config-${c}
        resources:
          requests:
            cpu: 100m
            memory: 64Mi
          limits:
            cpu: 200m
            memory: 128Mi
        readinessProbe:
          httpGet:
            path: /ready
            port: ${8080 + c}
          periodSeconds: 5
        volumeMounts:
        - name: data
          mountPath: /data/${c}`);
  }
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: big
  labels:
    app: big
spec:
  replicas: 3
  selector:
    matchLabels:
      app: big
  template:
    metadata:
      labels:
        app: big
    spec:
      containers:
${containers.join('\n')}
      volumes:
      - name: data
        emptyDir: {}
`;
}

/** A cluster's API server with kubeadm's authorization (Node, RBAC), its bootstrap objects and nodes. */
async function clusterServer(clock: Clock): Promise<ApiServer> {
  const server = await createApiServer({ store: createStore({ backend: 'memory', clock }), clock, random: new Random('bench'), authorizer: nodeAndRbac, compactionIntervalMs: 0 });
  await bootstrapSystemObjects(server);
  await server.handle({ verb: 'create', user: ADMIN_USER, group: '', version: 'v1', resource: 'serviceaccounts', namespace: 'default', body: { object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } } } });
  for (let n = 0; n < WRITE_MIX_NODES; n++) {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: `node-${n}`, labels: { 'kubernetes.io/hostname': `node-${n}` } }, spec: { podCIDR: `10.244.${n}.0/24` } };
    await server.handle({ verb: 'create', user: nodeUser(`node-${n}`), userAgent: 'kubelet/v1.35.0', group: '', version: 'v1', resource: 'nodes', body: { object: node } });
  }
  await clock.settle({ maxDuration: 0 });
  return server;
}

/** The four writes one pod costs: create, bind, Scheduled event, status patch. */
function podWrites(i: number): ApiRequest[] {
  const name = `web-7d4b9c-${i}`;
  const node = `node-${i % WRITE_MIX_NODES}`;
  const core = { group: '', version: 'v1', namespace: 'default' };
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      labels: { app: 'web', 'pod-template-hash': '7d4b9c' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c', uid: '3f2b6c1e-8d7a-4e5f-9a0b-1c2d3e4f5a6b', controller: true, blockOwnerDeletion: true }],
    },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
  };
  const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: 'default' }, target: { apiVersion: 'v1', kind: 'Node', name: node } };
  const event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.181a2b3c4d5e6f70`, namespace: 'default' },
    involvedObject: { kind: 'Pod', namespace: 'default', name, apiVersion: 'v1' },
    reason: 'Scheduled',
    message: `Successfully assigned default/${name} to ${node}`,
    source: { component: 'default-scheduler' },
    firstTimestamp: '2025-01-01T00:00:00Z',
    lastTimestamp: '2025-01-01T00:00:00Z',
    count: 1,
    type: 'Normal',
  };
  const ready = { lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:02Z', status: 'True' };
  const status = {
    status: {
      phase: 'Running',
      podIP: `10.244.${i % WRITE_MIX_NODES}.${(i % 250) + 2}`,
      startTime: '2025-01-01T00:00:01Z',
      conditions: [{ type: 'Ready', ...ready }, { type: 'ContainersReady', ...ready }],
      containerStatuses: [{ name: 'nginx', ready: true, started: true, restartCount: 0, image: 'nginx:1.27', imageID: 'docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31', containerID: 'containerd://4f1a', state: { running: { startedAt: '2025-01-01T00:00:01Z' } } }],
    },
  };
  return [
    { ...core, verb: 'create', user: controllerUser('replicaset-controller'), userAgent: 'kube-controller-manager/v1.35.0', resource: 'pods', body: { object: pod } },
    { ...core, verb: 'create', user: SCHEDULER_USER, userAgent: 'kube-scheduler/v1.35.0', resource: 'pods', subresource: 'binding', name, body: { object: binding } },
    { ...core, verb: 'create', user: SCHEDULER_USER, userAgent: 'kube-scheduler/v1.35.0', resource: 'events', body: { object: event } },
    { ...core, verb: 'patch', patchType: 'strategic', user: nodeUser(node), userAgent: 'kubelet/v1.35.0', resource: 'pods', subresource: 'status', name, body: { object: status } },
  ];
}

const suite: BenchSuite = async (args) => {
  const report = Reporter.fromArgs(args);
  schemaCompile(report);

  const text = Array.from({ length: THROUGHPUT_DOCUMENTS }, (_, i) => mixed(i)).join('---\n');
  const validator = new Validator(await createValidationCluster(), false);
  report.note(`validating ${THROUGHPUT_DOCUMENTS} generated manifests...`);
  const start = nowMs();
  const results = await validator.validateFile('generated.yaml', text);
  const seconds = (nowMs() - start) / 1000;
  const invalid = results.filter((r) => !r.valid).length;
  report.record({
    bench: 'validate-throughput',
    documents: results.length,
    invalid,
    seconds: Number(seconds.toFixed(3)),
    resourcesPerSecond: Math.round(results.length / seconds),
    target: 10_000,
  });
  await validator.server.close();

  const server = await createValidationCluster();
  const big = bigDeployment();
  const object = parseManifest(big, 'big.yaml')[0]!.object!;
  const request = {
    verb: 'create' as const,
    user: ADMIN_USER,
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    namespace: 'default',
    options: { dryRun: true, fieldValidation: 'Strict' as const, fieldManager: 'kubectl' },
    body: { object },
  };
  for (let i = 0; i < 200; i++) await server.handle(request);
  const times: number[] = [];
  for (let i = 0; i < LATENCY_RUNS; i++) {
    const t0 = nowMs();
    const res = await server.handle(request);
    times.push(nowMs() - t0);
    if (res.code !== 201) throw new Error(`dry run failed: ${JSON.stringify(res.body)}`);
  }
  times.sort((a, b) => a - b);
  report.record({
    bench: 'validate-dry-run-deployment',
    lines: big.split('\n').length,
    runs: LATENCY_RUNS,
    p50Ms: Number(percentile(times, 50).toFixed(3)),
    p99Ms: Number(percentile(times, 99).toFixed(3)),
    targetP99Ms: 2,
  });
  await server.close();

  // The watch caches and the informers' events are delivered as the clock runs, as in a cluster.
  const clock = new Clock();
  const cluster = await clusterServer(clock);
  report.note(`writing ${WRITE_MIX_PODS} pods (create, bind, event, status)...`);
  let writes = 0;
  const writesStart = nowMs();
  for (let i = 0; i < WRITE_MIX_PODS; i++) {
    for (const request of podWrites(i)) {
      const res = await cluster.handle(request);
      if (res.code >= 300) throw new Error(`${request.verb} ${request.resource}/${request.subresource ?? ''} failed: ${JSON.stringify(res.body)}`);
      writes++;
    }
    if (i % 100 === 99) await clock.settle({ maxDuration: 0 });
  }
  const writeSeconds = (nowMs() - writesStart) / 1000;
  report.record({
    bench: 'apiserver-write-mix',
    pods: WRITE_MIX_PODS,
    writes,
    seconds: Number(writeSeconds.toFixed(3)),
    writesPerSecond: Math.round(writes / writeSeconds),
    target: 10_000,
  });
  await cluster.close();
};

export default suite;

/**
 * Compiling a kind's schema on first use, in this fresh process: the first one (CronJob, which
 * also reads the kind index and the batch/v1 document), then every other kind once.
 */
function schemaCompile(report: Reporter): void {
  let t0 = nowMs();
  if (!schemaForKind('batch', 'v1', 'CronJob')) throw new Error('no schema for batch/v1 CronJob');
  const firstMs = nowMs() - t0;
  const times: number[] = [];
  const kinds = Object.keys(JSON.parse(readFileSync(join(kubernetesDataDir(), 'openapi', 'v3', 'kinds.json'), 'utf8')) as object);
  for (const name of kinds) {
    const [group, version, kind] = name.split('/') as [string, string, string];
    t0 = nowMs();
    schemaForKind(group, version, kind);
    times.push(nowMs() - t0);
  }
  times.sort((a, b) => a - b);
  report.record({
    bench: 'schema-compile',
    firstKindMs: Number(firstMs.toFixed(2)),
    kinds: times.length,
    totalMs: Number(times.reduce((a, b) => a + b, 0).toFixed(1)),
    p50Ms: Number(percentile(times, 50).toFixed(3)),
    maxMs: Number(times[times.length - 1]!.toFixed(2)),
    targetFirstKindMs: 50,
  });
}
