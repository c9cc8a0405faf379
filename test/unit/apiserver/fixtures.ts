/** Objects the apiserver tests create. */
import type { JsonObject } from '../../../src/engine/api/types';

export const namespace = (name: string): JsonObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

export const configMap = (name: string, data: Record<string, string> = {}, labels?: Record<string, string>): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: labels ? { name, labels } : { name },
  data,
});

export const deployment = (name: string, replicas = 2): JsonObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
  },
});

export const pod = (name: string, spec: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...spec },
});

export const serviceAccount = (name: string): JsonObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
