/** What the cluster benchmarks apply: Deployment app-<i> of pause containers with small requests. */
export function deploymentManifest(i: number, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: app-${i}
  template:
    metadata:
      labels:
        app: app-${i}
    spec:
      containers:
      - name: app
        image: registry.k8s.io/pause:3.10
        resources:
          requests:
            cpu: 10m
            memory: 16Mi
`;
}

/** Deployments app-0 ... app-<n-1>, as one multi-document manifest. */
export function deploymentsManifest(deployments: number, replicas: number): string {
  return Array.from({ length: deployments }, (_, i) => deploymentManifest(i, replicas)).join('---\n');
}
