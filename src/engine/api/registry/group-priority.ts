/**
 * The order of API groups in discovery, and so in kubectl's resolution of names several groups
 * share ("events", "ev" -> the core group): kube-apiserver's APIService priorities
 * (DefaultGenericAPIServicePriorities and apiVersionPriorities in pkg/controlplane/apiserver),
 * highest first; within a group the version with the highest version priority is preferred.
 */
import { table } from '../own';

const GROUP_PRIORITY = table<number>({
  // kube-aggregator lists its own group first (APIRegistrationGroupPriority).
  'apiregistration.k8s.io': 20001,
  '': 18000,
  apps: 17800,
  'events.k8s.io': 17750,
  'authentication.k8s.io': 17700,
  'authorization.k8s.io': 17600,
  autoscaling: 17500,
  batch: 17400,
  'networking.k8s.io': 17200,
  policy: 17100,
  'rbac.authorization.k8s.io': 17000,
  'storage.k8s.io': 16800,
  'admissionregistration.k8s.io': 16700,
  'apiextensions.k8s.io': 16700,
  'scheduling.k8s.io': 16600,
  'coordination.k8s.io': 16500,
  'discovery.k8s.io': 16200,
  // metrics-server's APIService (groupPriorityMinimum 100).
  'metrics.k8s.io': 100,
});

/** The groupPriorityMinimum of the APIServices kube-apiserver makes for CRD groups. */
const CRD_GROUP_PRIORITY = 1000;

/** Version priorities other than 15, the one every other served built-in group-version has. */
const VERSION_PRIORITY = table<number>({
  '/v1': 1,
  'autoscaling/v1': 15,
  'autoscaling/v2': 30,
  'metrics.k8s.io/v1beta1': 100,
});

/** A CRD's group-versions' APIService priorities (crdregistration: 1000, and 100 for every version). */
export const CRD_API_SERVICE_PRIORITY = { group: CRD_GROUP_PRIORITY, version: 100 } as const;

/**
 * The priorities kube-apiserver gives the local APIService of a built-in group-version, or
 * undefined for a group it has none for (it then registers no APIService).
 */
export function apiServicePriority(group: string, version: string): { group: number; version: number } | undefined {
  const g = GROUP_PRIORITY[group];
  if (g === undefined || group === 'apiregistration.k8s.io') return undefined;
  return { group: g, version: VERSION_PRIORITY[`${group}/${version}`] ?? 15 };
}

/**
 * Negative when group a comes before group b in discovery; ties go by name. The core group
 * (/api) comes before every group of /apis.
 */
export function compareGroups(a: string, b: string): number {
  if (a === '' || b === '') return a === b ? 0 : a === '' ? -1 : 1;
  const pa = GROUP_PRIORITY[a] ?? CRD_GROUP_PRIORITY;
  const pb = GROUP_PRIORITY[b] ?? CRD_GROUP_PRIORITY;
  if (pa !== pb) return pb - pa;
  return a < b ? -1 : a > b ? 1 : 0;
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const STABILITY = table<number>({ '': 2, beta: 1, alpha: 0 });

/**
 * version.CompareKubeAwareVersionStrings: GA before beta before alpha, higher numbers first;
 * versions that do not look like Kubernetes versions come last, by name. Negative when a is
 * preferred.
 */
function compareKubeAware(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma || !mb) return ma ? -1 : mb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  const [, majorA = '', stabilityA = '', minorA = '0'] = ma;
  const [, majorB = '', stabilityB = '', minorB = '0'] = mb;
  if (stabilityA !== stabilityB) return STABILITY[stabilityB]! - STABILITY[stabilityA]!;
  if (majorA !== majorB) return Number(majorB) - Number(majorA);
  return Number(minorB) - Number(minorA);
}

/**
 * Negative when version a of a group is preferred over version b: by the APIService's version
 * priority (a CRD's versions all get the same), then Kubernetes-aware version order.
 */
export function compareVersions(group: string, a: string, b: string): number {
  const byPriority = (VERSION_PRIORITY[`${group}/${b}`] ?? 15) - (VERSION_PRIORITY[`${group}/${a}`] ?? 15);
  return byPriority !== 0 ? byPriority : compareKubeAware(a, b);
}
