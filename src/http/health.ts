/**
 * /healthz, /livez, /readyz and their single checks (/livez/etcd), plain "ok" or, with
 * ?verbose, one "[+]<check> ok" line per check as kube-apiserver prints them. The etcd checks
 * are kube-apiserver's (a linearizable read with a 2 s timeout, see engine/apiserver/etcd-health);
 * the others pass while kubesim serves.
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

/** The checks that depend on etcd answering (kube-apiserver's etcd health and readiness checks). */
const ETCD_CHECKS = new Set(['etcd', 'etcd-readiness']);

export interface HealthAnswer {
  readonly code: 200 | 500;
  readonly body: string;
}

/**
 * The answer for /<endpoint>[/<check>]; undefined for a check that does not exist. `etcdError`
 * is the etcd check's error (undefined when etcd answered). As kube-apiserver's healthz
 * handler: a failed check is "[-]<check> failed: reason withheld", a failure is always
 * verbose and ends "<endpoint> check failed" with status 500; a single failed check answers
 * "internal server error: <error>".
 */
export function healthAnswer(endpoint: HealthEndpoint, check: string, verbose: boolean, etcdError: string | undefined, exclude: readonly string[] = []): HealthAnswer | undefined {
  const checks = CHECKS[endpoint]!;
  const failed = (c: string): boolean => etcdError !== undefined && ETCD_CHECKS.has(c);
  if (check) {
    if (!checks.includes(check)) return undefined;
    return failed(check) ? { code: 500, body: `internal server error: ${etcdError}\n` } : { code: 200, body: 'ok' };
  }
  const excluded = new Set(exclude);
  let out = '';
  let anyFailed = false;
  for (const c of checks) {
    if (excluded.delete(c)) out += `[+]${c} excluded: ok\n`;
    else if (failed(c)) {
      anyFailed = true;
      out += `[-]${c} failed: reason withheld\n`;
    } else out += `[+]${c} ok\n`;
  }
  if (excluded.size > 0) out += `warn: some health checks cannot be excluded: no matches for ${[...excluded].sort().map((c) => `"${c}"`).join(',')}\n`;
  // http.Error adds the newline.
  if (anyFailed) return { code: 500, body: `${out}${endpoint} check failed\n` };
  if (!verbose) return { code: 200, body: 'ok' };
  return { code: 200, body: `${out}${endpoint} check passed\n` };
}

/** Whether the answer needs the etcd check's result. */
export function needsEtcd(endpoint: HealthEndpoint, check: string): boolean {
  return check ? ETCD_CHECKS.has(check) : CHECKS[endpoint]!.some((c) => ETCD_CHECKS.has(c));
}
