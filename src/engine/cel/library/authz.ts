/**
 * Kubernetes' authz library (k8s.io/apiserver/pkg/cel/library/authz.go): `authorizer` checks
 * what the requesting user (or a named service account) may do, through the API server's own
 * authorizer, with the same attributes a request would carry.
 */
import type { Environment } from '@marcbachmann/cel-js';
import type { UserInfo } from '../../apiserver/authn/user';
import type { Attributes, Authorizer, Decision } from '../../apiserver/authz/types';
import { isDNS1123Label, isDNS1123Subdomain } from '../../api/names';
import { celError } from '../values';

export class CelAuthorizer {
  constructor(
    readonly user: UserInfo,
    readonly authz: Authorizer,
  ) {}
}
export class CelPathCheck {
  constructor(
    readonly authorizer: CelAuthorizer,
    readonly path: string,
  ) {}
}
export class CelGroupCheck {
  constructor(
    readonly authorizer: CelAuthorizer,
    readonly group: string,
  ) {}
}
export class CelResourceCheck {
  constructor(
    readonly authorizer: CelAuthorizer,
    readonly group: string,
    readonly resource: string,
    readonly subresource = '',
    readonly namespace = '',
    readonly name = '',
    readonly fieldSelector = '',
    readonly labelSelector = '',
  ) {}
  with(change: Partial<Pick<CelResourceCheck, 'subresource' | 'namespace' | 'name' | 'fieldSelector' | 'labelSelector'>>): CelResourceCheck {
    return new CelResourceCheck(this.authorizer, this.group, this.resource, change.subresource ?? this.subresource, change.namespace ?? this.namespace, change.name ?? this.name, change.fieldSelector ?? this.fieldSelector, change.labelSelector ?? this.labelSelector);
  }
}
export class CelDecision {
  constructor(
    readonly decision: Decision | undefined,
    readonly error: string,
  ) {}
}

async function decide(a: CelAuthorizer, attrs: Omit<Attributes, 'user'>): Promise<CelDecision> {
  try {
    return new CelDecision(await a.authz.authorize({ ...attrs, user: a.user }), '');
  } catch (err) {
    return new CelDecision(undefined, (err as Error).message);
  }
}

function serviceAccount(a: CelAuthorizer, namespace: string, name: string): CelAuthorizer {
  if (isDNS1123Subdomain(name).length > 0) throw celError('Invalid service account name');
  if (isDNS1123Label(namespace).length > 0) throw celError('Invalid service account namespace');
  const user: UserInfo = {
    username: `system:serviceaccount:${namespace}:${name}`,
    uid: '',
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
    extra: {},
  };
  return new CelAuthorizer(user, a.authz);
}

export function registerAuthz(env: Environment): void {
  env
    .registerType('kubernetes.authorization.Authorizer', CelAuthorizer)
    .registerType('kubernetes.authorization.PathCheck', CelPathCheck)
    .registerType('kubernetes.authorization.GroupCheck', CelGroupCheck)
    .registerType('kubernetes.authorization.ResourceCheck', CelResourceCheck)
    .registerType('kubernetes.authorization.Decision', CelDecision)
    .registerFunction('kubernetes.authorization.Authorizer.path(string): kubernetes.authorization.PathCheck', (a: CelAuthorizer, p: string) => {
      if (p === '') throw celError('path must not be empty');
      return new CelPathCheck(a, p);
    })
    .registerFunction('kubernetes.authorization.Authorizer.group(string): kubernetes.authorization.GroupCheck', (a: CelAuthorizer, g: string) => new CelGroupCheck(a, g))
    .registerFunction('kubernetes.authorization.Authorizer.serviceAccount(string, string): kubernetes.authorization.Authorizer', serviceAccount)
    .registerFunction('kubernetes.authorization.GroupCheck.resource(string): kubernetes.authorization.ResourceCheck', (g: CelGroupCheck, r: string) => {
      if (r === '') throw celError('resource must not be empty');
      return new CelResourceCheck(g.authorizer, g.group, r);
    })
    .registerFunction('kubernetes.authorization.ResourceCheck.subresource(string): kubernetes.authorization.ResourceCheck', (r: CelResourceCheck, s: string) => r.with({ subresource: s }))
    .registerFunction('kubernetes.authorization.ResourceCheck.namespace(string): kubernetes.authorization.ResourceCheck', (r: CelResourceCheck, s: string) => r.with({ namespace: s }))
    .registerFunction('kubernetes.authorization.ResourceCheck.name(string): kubernetes.authorization.ResourceCheck', (r: CelResourceCheck, s: string) => r.with({ name: s }))
    .registerFunction('kubernetes.authorization.ResourceCheck.fieldSelector(string): kubernetes.authorization.ResourceCheck', (r: CelResourceCheck, s: string) => r.with({ fieldSelector: s }))
    .registerFunction('kubernetes.authorization.ResourceCheck.labelSelector(string): kubernetes.authorization.ResourceCheck', (r: CelResourceCheck, s: string) => r.with({ labelSelector: s }))
    .registerFunction({
      signature: 'kubernetes.authorization.PathCheck.check(string): kubernetes.authorization.Decision',
      async: true,
      handler: (p: CelPathCheck, verb: string) => decide(p.authorizer, { verb, isResourceRequest: false, path: p.path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' }),
    })
    .registerFunction({
      signature: 'kubernetes.authorization.ResourceCheck.check(string): kubernetes.authorization.Decision',
      async: true,
      handler: (r: CelResourceCheck, verb: string) =>
        decide(r.authorizer, {
          verb,
          isResourceRequest: true,
          path: '',
          namespace: r.namespace,
          apiGroup: r.group,
          apiVersion: '*',
          resource: r.resource,
          subresource: r.subresource,
          name: r.name,
          ...(r.fieldSelector ? { fieldSelector: r.fieldSelector } : {}),
          ...(r.labelSelector ? { labelSelector: r.labelSelector } : {}),
        }),
    })
    .registerFunction('kubernetes.authorization.Decision.errored(): bool', (d: CelDecision) => d.error !== '')
    .registerFunction('kubernetes.authorization.Decision.error(): string', (d: CelDecision) => d.error)
    .registerFunction('kubernetes.authorization.Decision.allowed(): bool', (d: CelDecision) => d.decision?.decision === 'Allow')
    .registerFunction('kubernetes.authorization.Decision.reason(): string', (d: CelDecision) => d.decision?.reason ?? '');
}
