/** Object builders mirroring upstream's test helpers (newDeployment, rs, newRSWithStatus in deployment_controller_test.go). */
import type { IntOrString } from '../../../../src/engine/api/intstr';
import type { Deployment } from '../../../../src/engine/controllers/deployment/types';
import type { ReplicaSet } from '../../../../src/engine/controllers/util/types/workload';

export const T0 = '2016-05-20T00:00:00Z';
export const T1 = '2016-05-20T01:00:00Z';
export const T2 = '2016-05-20T02:00:00Z';

export function newDeployment(
  name: string,
  replicas: number,
  opts: { revisionHistoryLimit?: number; maxSurge?: IntOrString; maxUnavailable?: IntOrString; selector?: Record<string, string> } = {},
): Deployment {
  const selector = opts.selector ?? {};
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, annotations: {} },
    spec: {
      replicas,
      selector: { matchLabels: selector },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: opts.maxSurge ?? 0, maxUnavailable: opts.maxUnavailable ?? 0 } },
      template: { metadata: { labels: { ...selector } }, spec: { containers: [{ name: 'foo', image: 'foo/bar' }] } },
      ...(opts.revisionHistoryLimit !== undefined ? { revisionHistoryLimit: opts.revisionHistoryLimit } : {}),
    },
  };
}

export function rs(name: string, replicas: number, selector: Record<string, string> | undefined, creationTimestamp: string | undefined): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, ...(creationTimestamp ? { creationTimestamp } : {}) },
    spec: { replicas, selector: { matchLabels: selector ?? {} }, template: {} },
  };
}

export function newRSWithStatus(name: string, specReplicas: number, statusReplicas: number, selector?: Record<string, string>): ReplicaSet {
  const r = rs(name, specReplicas, selector, undefined);
  r.status = { replicas: statusReplicas };
  return r;
}

export function withAnnotations<T extends { metadata: { annotations?: Record<string, string> } }>(obj: T, annotations: Record<string, string>): T {
  obj.metadata.annotations = { ...obj.metadata.annotations, ...annotations };
  return obj;
}
