/**
 * The order of API groups in discovery, and so in kubectl's resolution of names several groups
 * share ("events", "ev" -> the core group): kube-apiserver's APIService priorities
 * (DefaultGenericAPIServicePriorities and apiVersionPriorities in pkg/controlplane/apiserver),
 * highest first; within a group the version with the highest version priority is preferred.
 */
const GROUP_PRIORITY: Readonly<Record<string, number>> = {
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
};

const VERSION_PRIORITY: Readonly<Record<string, number>> = {
  'autoscaling/v1': 15,
  'autoscaling/v2': 30,
};

/** Negative when group a comes before group b in discovery; ties go by name. */
export function compareGroups(a: string, b: string): number {
  const pa = GROUP_PRIORITY[a] ?? 0;
  const pb = GROUP_PRIORITY[b] ?? 0;
  if (pa !== pb) return pb - pa;
  return a < b ? -1 : a > b ? 1 : 0;
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const STABILITY: Readonly<Record<string, number>> = { '': 2, beta: 1, alpha: 0 };

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
