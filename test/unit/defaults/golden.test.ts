import { strict as assert } from 'node:assert';
import { parse } from 'yaml';
import { defaulted } from './defaulted';

/**
 * Minimal manifests in, the defaulted object out, as `kubectl apply` then `kubectl get -o yaml`
 * shows them against kube-apiserver 1.35, restricted to what defaulting decides. Left out:
 * server-set metadata and status; what admission adds (service account token volume and
 * mount, serviceAccountName, priority, preemptionPolicy, default tolerations); what registry
 * strategies and allocators add (Job selector and controller-uid labels, Service clusterIP(s),
 * ipFamilies, ipFamilyPolicy); and encoding artifacts of Go structs that are never omitted
 * (`resources: {}`, `status: {}`).
 */
const golden: { name: string; input: string; output: string }[] = [
  {
    name: 'Deployment',
    input: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels: {app: nginx}
spec:
  replicas: 3
  selector:
    matchLabels: {app: nginx}
  template:
    metadata:
      labels: {app: nginx}
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`,
    output: `
apiVersion: apps/v1
kind: Deployment
metadata:
  labels: {app: nginx}
  name: nginx-deployment
spec:
  progressDeadlineSeconds: 600
  replicas: 3
  revisionHistoryLimit: 10
  selector:
    matchLabels: {app: nginx}
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      labels: {app: nginx}
    spec:
      containers:
      - image: nginx:1.14.2
        imagePullPolicy: IfNotPresent
        name: nginx
        ports:
        - containerPort: 80
          protocol: TCP
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
`,
  },
  {
    name: 'Pod',
    input: `
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: web
    image: nginx
    resources:
      limits: {cpu: 500m, memory: 128Mi}
    readinessProbe:
      httpGet: {port: 80}
`,
    output: `
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - image: nginx
    imagePullPolicy: Always
    name: web
    readinessProbe:
      failureThreshold: 3
      httpGet:
        path: /
        port: 80
        scheme: HTTP
      periodSeconds: 10
      successThreshold: 1
      timeoutSeconds: 1
    resources:
      limits: {cpu: 500m, memory: 128Mi}
      requests: {cpu: 500m, memory: 128Mi}
    terminationMessagePath: /dev/termination-log
    terminationMessagePolicy: File
  dnsPolicy: ClusterFirst
  enableServiceLinks: true
  restartPolicy: Always
  schedulerName: default-scheduler
  securityContext: {}
  terminationGracePeriodSeconds: 30
`,
  },
  {
    name: 'Service',
    input: `
apiVersion: v1
kind: Service
metadata:
  name: my-service
spec:
  selector: {app.kubernetes.io/name: MyApp}
  ports:
  - port: 80
    targetPort: 9376
  - name: metrics
    port: 9090
`,
    output: `
apiVersion: v1
kind: Service
metadata:
  name: my-service
spec:
  internalTrafficPolicy: Cluster
  ports:
  - port: 80
    protocol: TCP
    targetPort: 9376
  - name: metrics
    port: 9090
    protocol: TCP
    targetPort: 9090
  selector: {app.kubernetes.io/name: MyApp}
  sessionAffinity: None
  type: ClusterIP
`,
  },
  {
    name: 'Job',
    input: `
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  backoffLimit: 4
  template:
    spec:
      containers:
      - name: pi
        image: perl:5.34.0
        command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]
      restartPolicy: Never
`,
    output: `
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  backoffLimit: 4
  completionMode: NonIndexed
  completions: 1
  manualSelector: false
  parallelism: 1
  podReplacementPolicy: TerminatingOrFailed
  suspend: false
  template:
    spec:
      containers:
      - command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]
        image: perl:5.34.0
        imagePullPolicy: IfNotPresent
        name: pi
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Never
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
`,
  },
  {
    name: 'CronJob',
    input: `
apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: hello
            image: busybox:1.28
            imagePullPolicy: IfNotPresent
            command: [/bin/sh, -c, date; echo Hello from the Kubernetes cluster]
          restartPolicy: OnFailure
`,
    output: `
apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  concurrencyPolicy: Allow
  failedJobsHistoryLimit: 1
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - command: [/bin/sh, -c, date; echo Hello from the Kubernetes cluster]
            image: busybox:1.28
            imagePullPolicy: IfNotPresent
            name: hello
            terminationMessagePath: /dev/termination-log
            terminationMessagePolicy: File
          dnsPolicy: ClusterFirst
          restartPolicy: OnFailure
          schedulerName: default-scheduler
          securityContext: {}
          terminationGracePeriodSeconds: 30
  schedule: "* * * * *"
  successfulJobsHistoryLimit: 3
  suspend: false
`,
  },
  {
    name: 'StatefulSet',
    input: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: nginx}
  serviceName: nginx
  replicas: 3
  minReadySeconds: 10
  template:
    metadata:
      labels: {app: nginx}
    spec:
      terminationGracePeriodSeconds: 10
      containers:
      - name: nginx
        image: registry.k8s.io/nginx-slim:0.24
        ports:
        - containerPort: 80
          name: web
        volumeMounts:
        - name: www
          mountPath: /usr/share/nginx/html
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: ["ReadWriteOnce"]
      storageClassName: my-storage-class
      resources:
        requests:
          storage: 1Gi
`,
    output: `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  minReadySeconds: 10
  persistentVolumeClaimRetentionPolicy:
    whenDeleted: Retain
    whenScaled: Retain
  podManagementPolicy: OrderedReady
  replicas: 3
  revisionHistoryLimit: 10
  selector:
    matchLabels: {app: nginx}
  serviceName: nginx
  template:
    metadata:
      labels: {app: nginx}
    spec:
      containers:
      - image: registry.k8s.io/nginx-slim:0.24
        imagePullPolicy: IfNotPresent
        name: nginx
        ports:
        - containerPort: 80
          name: web
          protocol: TCP
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
        volumeMounts:
        - mountPath: /usr/share/nginx/html
          name: www
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 10
  updateStrategy:
    rollingUpdate:
      maxUnavailable: 1
      partition: 0
    type: RollingUpdate
  volumeClaimTemplates:
  - apiVersion: v1
    kind: PersistentVolumeClaim
    metadata:
      name: www
    spec:
      accessModes: ["ReadWriteOnce"]
      resources:
        requests:
          storage: 1Gi
      storageClassName: my-storage-class
      volumeMode: Filesystem
    status:
      phase: Pending
`,
  },
  {
    name: 'DaemonSet',
    input: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd-elasticsearch
  namespace: kube-system
spec:
  selector:
    matchLabels: {name: fluentd-elasticsearch}
  template:
    metadata:
      labels: {name: fluentd-elasticsearch}
    spec:
      tolerations:
      - key: node-role.kubernetes.io/control-plane
        operator: Exists
        effect: NoSchedule
      containers:
      - name: fluentd-elasticsearch
        image: quay.io/fluentd_elasticsearch/fluentd:v2.5.2
        resources:
          limits: {memory: 200Mi}
          requests: {cpu: 100m, memory: 200Mi}
        volumeMounts:
        - name: varlog
          mountPath: /var/log
      terminationGracePeriodSeconds: 30
      volumes:
      - name: varlog
        hostPath:
          path: /var/log
`,
    output: `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd-elasticsearch
  namespace: kube-system
spec:
  revisionHistoryLimit: 10
  selector:
    matchLabels: {name: fluentd-elasticsearch}
  template:
    metadata:
      labels: {name: fluentd-elasticsearch}
    spec:
      containers:
      - image: quay.io/fluentd_elasticsearch/fluentd:v2.5.2
        imagePullPolicy: IfNotPresent
        name: fluentd-elasticsearch
        resources:
          limits: {memory: 200Mi}
          requests: {cpu: 100m, memory: 200Mi}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
        volumeMounts:
        - mountPath: /var/log
          name: varlog
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
      tolerations:
      - effect: NoSchedule
        key: node-role.kubernetes.io/control-plane
        operator: Exists
      volumes:
      - hostPath:
          path: /var/log
          type: ""
        name: varlog
  updateStrategy:
    rollingUpdate:
      maxSurge: 0
      maxUnavailable: 1
    type: RollingUpdate
`,
  },
];

describe('defaults: golden objects (kubectl get -o yaml against 1.35, defaulting part)', () => {
  for (const g of golden) {
    it(g.name, () => assert.deepEqual(defaulted(parse(g.input) as object), parse(g.output)));
    it(`${g.name} is a fixed point`, () => {
      const once = defaulted(parse(g.input) as object);
      assert.deepEqual(defaulted(once), once);
    });
  }
});
