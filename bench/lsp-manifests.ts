/**
 * Manifests for the LSP benchmark: a realistic multi-document file of about 1,000 lines (a
 * Namespace, then per app a Deployment with probes, resources, env and volumes, a Service, a
 * ConfigMap and an HPA, and an Ingress per three apps), the edits made to it, and the seven
 * mistakes only the API server's field rules catch.
 */

const TIERS = ['api', 'web', 'worker', 'auth', 'billing', 'search', 'cart', 'notify', 'report', 'media'];

function app(i: number, envCount: number): { name: string; docs: string[] } {
  const name = `${TIERS[i % TIERS.length]}-${i}`;
  const env: string[] = [];
  for (let e = 0; e < envCount; e++) {
    env.push(
      e % 3 === 2
        ? `            - name: SECRET_${e}\n              valueFrom:\n                secretKeyRef:\n                  name: ${name}-secrets\n                  key: key-${e}`
        : `            - name: VAR_${e}\n              value: "value-${i}-${e}"`,
    );
  }
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: shop
  labels:
    app.kubernetes.io/name: ${name}
    app.kubernetes.io/part-of: shop
spec:
  replicas: ${2 + (i % 4)}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  selector:
    matchLabels:
      app.kubernetes.io/name: ${name}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${name}
        app.kubernetes.io/part-of: shop
      annotations:
        prometheus.io/scrape: "true"
    spec:
      serviceAccountName: ${name}
      terminationGracePeriodSeconds: 30
      securityContext:
        runAsNonRoot: true
        runAsUser: 10001
        fsGroup: 10001
      containers:
        - name: ${name}
          image: registry.example.com/shop/${name}:1.${i}.${i % 7}
          imagePullPolicy: IfNotPresent
          args:
            - --port=8080
            - --metrics-port=9090
          ports:
            - name: http
              containerPort: 8080
              protocol: TCP
            - name: metrics
              containerPort: 9090
              protocol: TCP
          env:
${env.join('\n')}
          envFrom:
            - configMapRef:
                name: ${name}-config
          resources:
            requests:
              cpu: 100m
              memory: 128Mi
            limits:
              cpu: 500m
              memory: 512Mi
          readinessProbe:
            httpGet:
              path: /healthz/ready
              port: http
            initialDelaySeconds: 5
            periodSeconds: 10
          livenessProbe:
            httpGet:
              path: /healthz/live
              port: http
            initialDelaySeconds: 15
            periodSeconds: 20
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop:
                - ALL
          volumeMounts:
            - name: config
              mountPath: /etc/${name}
              readOnly: true
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: config
          configMap:
            name: ${name}-config
        - name: tmp
          emptyDir: {}`;
  const service = `apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: shop
spec:
  type: ClusterIP
  selector:
    app.kubernetes.io/name: ${name}
  ports:
    - name: http
      port: 80
      targetPort: http
      protocol: TCP
    - name: metrics
      port: 9090
      targetPort: metrics`;
  const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}-config
  namespace: shop
data:
  LOG_FORMAT: json
  CACHE_TTL: "300"
  config.yaml: |
    server:
      port: 8080
    upstream:
      url: http://${TIERS[(i + 1) % TIERS.length]}-${i + 1}.shop.svc.cluster.local`;
  const hpa = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ${name}
  namespace: shop
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: ${name}
  minReplicas: 2
  maxReplicas: ${10 + i}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: 70`;
  return { name, docs: [deployment, service, configMap, hpa] };
}

function ingress(k: number, names: string[]): string {
  const rules = names
    .map((n) => `    - host: ${n}.shop.example.com\n      http:\n        paths:\n          - path: /\n            pathType: Prefix\n            backend:\n              service:\n                name: ${n}\n                port:\n                  name: http`)
    .join('\n');
  return `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: shop-ingress-${k}
  namespace: shop
spec:
  ingressClassName: nginx
  rules:
${rules}`;
}

const NAMESPACE = `apiVersion: v1
kind: Namespace
metadata:
  name: shop`;

function build(apps: number, envCount: number): string {
  const docs = [NAMESPACE];
  let pending: string[] = [];
  for (let i = 0; i < apps; i++) {
    const a = app(i, envCount);
    docs.push(...a.docs);
    pending.push(a.name);
    if (pending.length === 3 || i === apps - 1) {
      docs.push(ingress(docs.length, pending));
      pending = [];
    }
  }
  return docs.join('\n---\n') + '\n';
}

/** The manifest whose line count is closest to `lines`. */
export function benchManifest(lines: number): string {
  let best = { text: '', diff: Infinity };
  for (let apps = 1; apps < 200; apps++) {
    for (let env = 2; env <= 12; env++) {
      const text = build(apps, env);
      const diff = Math.abs(text.split('\n').length - 1 - lines);
      if (diff < best.diff) best = { text, diff };
    }
  }
  return best.text;
}

/** One edit: replace what `pattern` matches on a line. */
export interface Edit {
  line: number;
  pattern: RegExp;
  text: string;
  /** Whether the file has errors after this edit (the servers must notice both ways). */
  broken: boolean;
}

/**
 * Edits spread over the file as typing would make them: replicas, image tags, env values,
 * service ports, HPA targets, ConfigMap values; a few make the file invalid in a way both
 * servers see (a string where a number belongs) and the next one fixes it.
 */
export function planEdits(text: string, count: number): Edit[] {
  const lines = text.split('\n');
  const find = (re: RegExp) => lines.flatMap((l, i) => (re.test(l) ? [i] : []));
  const targets: Array<[number[], RegExp, (i: number) => string]> = [
    [find(/^  replicas: \d+$/), /\d+$/, (i) => String(2 + (i % 5))],
    [find(/^\s+image: \S+:\d+\.\d+\.\d+$/), /\d+$/, (i) => String(i % 10)],
    [find(/^\s+value: "value-\d+-\d+"$/), /-\d+"$/, (i) => `-${i}"`],
    [find(/^      port: 80$/), /\d+$/, (i) => (i % 2 ? '8080' : '80')],
    [find(/^\s+averageUtilization: \d+$/), /\d+$/, (i) => String(60 + i)],
    [find(/^  CACHE_TTL: "\d+"$/), /\d+"$/, (i) => `${300 + i}"`],
  ];
  const replicaLines = targets[0]![0];
  const edits: Edit[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 10 === 9) {
      const line = replicaLines[Math.floor(replicaLines.length / 2)]!;
      edits.push({ line, pattern: /\d+$/, text: '"three"', broken: true }, { line, pattern: /"three"$/, text: '3', broken: false });
      i++;
      continue;
    }
    const [where, pattern, make] = targets[i % targets.length]!;
    edits.push({ line: where[(i * 7919) % where.length]!, pattern, text: make(i), broken: false });
  }
  return edits.slice(0, count);
}

/** A Deployment that passes every check, for the seven variations below. */
function deployment(o: { name?: string; replicas?: number | string; template?: string; containers?: string; port?: number; resources?: string } = {}): string {
  const resources = o.resources ?? `          resources:\n            requests:\n              cpu: 250m\n            limits:\n              cpu: 500m`;
  const containers = o.containers ?? `        - name: web\n          image: nginx:1.27\n          ports:\n            - containerPort: ${o.port ?? 8080}\n${resources}`;
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${o.name ?? 'web'}
spec:
  replicas: ${o.replicas ?? 2}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: ${o.template ?? 'web'}
    spec:
      containers:
${containers}
`;
}

export interface SemanticCase {
  id: string;
  /** The field kube-apiserver names in its answer to the Apply command's request. */
  field: string;
  text: string;
}

/** The valid document both servers must accept. */
export const CONTROL = deployment();

/** Mistakes the API server rejects that no OpenAPI schema describes. */
export const SEMANTIC_CASES: SemanticCase[] = [
  { id: 'selector-vs-labels', field: 'spec.template.metadata.labels', text: deployment({ template: 'api' }) },
  { id: 'replicas-negative', field: 'spec.replicas', text: deployment({ replicas: -1 }) },
  { id: 'port-70000', field: 'spec.template.spec.containers[0].ports[0].containerPort', text: deployment({ port: 70000 }) },
  {
    // Server-side apply refuses a list-map key given twice before validation runs.
    id: 'duplicate-container-names',
    field: 'spec.template.spec.containers',
    text: deployment({ containers: `        - name: web\n          image: nginx:1.27\n        - name: web\n          image: busybox:1.36` }),
  },
  { id: 'name-My_Pod', field: 'metadata.name', text: deployment({ name: 'My_Pod' }) },
  {
    id: 'nodeport-80',
    field: 'spec.ports[0].nodePort',
    text: `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  type: NodePort\n  selector:\n    app: web\n  ports:\n    - port: 80\n      targetPort: 8080\n      nodePort: 80\n`,
  },
  {
    id: 'request-above-limit',
    field: 'spec.template.spec.containers[0].resources.requests',
    text: deployment({ resources: `          resources:\n            requests:\n              cpu: "2"\n            limits:\n              cpu: "1"` }),
  },
];
