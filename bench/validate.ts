/**
 * `npm run bench -- validate [--json]`: how fast `kubesim validate` checks manifests.
 * - throughput: a generated set of 10,000 mixed manifests (Deployments, Services, ConfigMaps,
 *   Secrets, Jobs, ServiceAccounts, a few with mistakes) validated in one process, as the CLI does
 *   it (parse, dry-run through the full pipeline, store), in resources per second;
 * - latency: p50/p99 of one dry-run create of a 300-line Deployment through the pipeline.
 */
import { Validator, createValidationCluster } from '../src/cli/validate';
import { ADMIN_USER } from '../src/engine/apiserver/authn/user';
import { parseManifest } from '../src/engine/apiserver/decode';
import { Reporter, nowMs, percentile, type BenchSuite } from './report';

const THROUGHPUT_DOCUMENTS = 10_000;
const LATENCY_RUNS = 2_000;

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

const suite: BenchSuite = async (args) => {
  const report = Reporter.fromArgs(args);

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
};

export default suite;
