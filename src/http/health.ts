/**
 * /healthz, /livez, /readyz and their single checks (/livez/etcd), plain "ok" or, with
 * ?verbose, one "[+]<check> ok" line per check as kube-apiserver prints them. kubesim's checks
 * always pass while it serves.
 */
const LIVE_CHECKS = [
  'ping',
  'log',
  'etcd',
  'poststarthook/start-apiserver-admission-initializer',
  'poststarthook/generic-apiserver-start-informers',
  'poststarthook/priority-and-fairness-config-consumer',
  'poststarthook/priority-and-fairness-filter',
  'poststarthook/storage-object-count-tracker-hook',
  'poststarthook/start-apiextensions-informers',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/start-system-namespaces-controller',
  'poststarthook/bootstrap-controller',
  'poststarthook/start-service-ip-repair-controllers',
  'poststarthook/rbac/bootstrap-roles',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
  'poststarthook/priority-and-fairness-config-producer',
  'poststarthook/start-cluster-authentication-info-controller',
  'poststarthook/start-kube-apiserver-identity-lease-controller',
  'poststarthook/start-kube-apiserver-identity-lease-garbage-collector',
  'poststarthook/start-legacy-token-tracking-controller',
  'poststarthook/start-kube-aggregator-informers',
  'poststarthook/apiservice-registration-controller',
  'poststarthook/apiservice-status-available-controller',
  'poststarthook/apiservice-discovery-controller',
  'poststarthook/kube-apiserver-autoregistration',
  'autoregister-completion',
  'poststarthook/apiservice-openapi-controller',
  'poststarthook/apiservice-openapiv3-controller',
];

const CHECKS: Record<string, string[]> = {
  healthz: LIVE_CHECKS,
  livez: LIVE_CHECKS,
  readyz: [...LIVE_CHECKS.slice(0, 3), 'etcd-readiness', 'informer-sync', ...LIVE_CHECKS.slice(3), 'shutdown'],
};

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export function isHealthEndpoint(name: string): name is HealthEndpoint {
  return Object.hasOwn(CHECKS, name);
}

/** The body for /<endpoint>[/<check>]; undefined for a check that does not exist. */
export function healthBody(endpoint: HealthEndpoint, check: string, verbose: boolean): string | undefined {
  const checks = CHECKS[endpoint]!;
  if (check) return checks.includes(check) ? 'ok' : undefined;
  if (!verbose) return 'ok';
  return checks.map((c) => `[+]${c} ok\n`).join('') + `${endpoint} check passed\n`;
}
