/**
 * Authentication and impersonation, the first filters of kube-apiserver's chain: a bearer token
 * or an in-process identity becomes a UserInfo; a request without either is system:anonymous
 * (when anonymous auth is on); Impersonate-* headers then swap the user, each part of the
 * swap authorized with the verb "impersonate".
 */
import { badRequestError, unauthorizedError } from '../api/status';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS, ANONYMOUS_USER, serviceAccountGroups, serviceAccountUsername, splitServiceAccountUsername, type UserInfo } from './authn/user';
import { forbiddenStatusError } from './authz/forbidden';
import type { Attributes } from './authz/types';
import type { RequestContext } from './context';
import { looksLikeJwt } from './authn/service-account-tokens';
import type { Impersonation } from './request';
import { own, setOwn } from '../api/own';

/**
 * A bearer token's user: a token kubesim handed out (kubeconfig users, --token-auth-file), else
 * a service account token this cluster signed that is still valid.
 */
export async function authenticateToken(server: RequestContext['server'], token: string): Promise<UserInfo | undefined> {
  const known = server.tokens.authenticate(token);
  if (known || !looksLikeJwt(token)) return known;
  return server.serviceAccountTokens.authenticate(token, server.clock.now(), server.storage);
}

export async function authenticate(ctx: RequestContext): Promise<UserInfo> {
  const { request, server } = ctx;
  let user: UserInfo | undefined;
  let how: string;
  if (request.user) {
    user = request.user;
    how = 'in-process identity';
  } else if (request.token !== undefined) {
    user = await authenticateToken(server, request.token);
    how = 'bearer token';
  } else {
    user = server.anonymousAuth ? ANONYMOUS_USER : undefined;
    how = 'anonymous';
  }
  if (!user) {
    ctx.stage({ stage: 'authentication', verdict: 'rejected', rule: how, detail: 'Unauthorized' });
    throw unauthorizedError();
  }
  ctx.stage({ stage: 'authentication', verdict: 'passed', rule: how, detail: user.username });
  if (request.impersonate) user = await impersonate(ctx, user, request.impersonate);
  return user;
}

interface ImpersonationStep {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  apiVersion: string;
  fieldPath: string;
}

function steps(imp: Impersonation): ImpersonationStep[] {
  const out: ImpersonationStep[] = [];
  const step = (kind: ImpersonationStep['kind'], name: string, extra: Partial<ImpersonationStep> = {}): ImpersonationStep => ({
    kind,
    namespace: '',
    name,
    apiVersion: '',
    fieldPath: '',
    ...extra,
  });
  if (imp.user) {
    const sa = splitServiceAccountUsername(imp.user);
    out.push(sa ? step('ServiceAccount', sa.name, { namespace: sa.namespace }) : step('User', imp.user));
  }
  for (const g of imp.groups ?? []) out.push(step('Group', g));
  for (const [key, values] of Object.entries(imp.extra ?? {})) {
    for (const v of values) out.push(step('UserExtra', v, { apiVersion: 'authentication.k8s.io/v1', fieldPath: key.toLowerCase() }));
  }
  if (imp.uid) out.push(step('UID', imp.uid, { apiVersion: 'authentication.k8s.io/v1' }));
  return out;
}

// Go's %v of an ObjectReference: its seven fields, space-separated, in braces.
const goReference = (s: ImpersonationStep): string => `{${[s.kind, s.namespace, s.name, '', s.apiVersion, '', s.fieldPath].join(' ')}}`;

async function impersonate(ctx: RequestContext, requestor: UserInfo, imp: Impersonation): Promise<UserInfo> {
  const all = steps(imp);
  if (!imp.user && all.length > 0) {
    const err = badRequestError(`requested [${all.map(goReference).join(' ')}] without impersonating a user`);
    ctx.stage({ stage: 'impersonation', verdict: 'rejected', detail: err.message });
    throw err;
  }
  let username = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  let uid = '';
  const groupsSpecified = (imp.groups ?? []).length > 0;
  for (const s of all) {
    const a: Attributes = {
      user: requestor,
      verb: 'impersonate',
      isResourceRequest: true,
      path: '',
      namespace: s.namespace,
      apiGroup: s.apiVersion ? 'authentication.k8s.io' : '',
      apiVersion: s.apiVersion ? 'v1' : '',
      resource: '',
      subresource: '',
      name: s.name,
    };
    let attrs: Attributes;
    switch (s.kind) {
      case 'ServiceAccount':
        attrs = { ...a, resource: 'serviceaccounts' };
        username = serviceAccountUsername(s.namespace, s.name);
        if (!groupsSpecified) groups = serviceAccountGroups(s.namespace);
        break;
      case 'User':
        attrs = { ...a, resource: 'users' };
        username = s.name;
        break;
      case 'Group':
        attrs = { ...a, resource: 'groups' };
        groups.push(s.name);
        break;
      case 'UserExtra':
        attrs = { ...a, resource: 'userextras', subresource: s.fieldPath };
        setOwn(extra, s.fieldPath, [...(own(extra, s.fieldPath) ?? []), s.name]);
        break;
      case 'UID':
        attrs = { ...a, resource: 'uids' };
        uid = s.name;
        break;
    }
    const d = await ctx.server.authorizer.authorize(attrs);
    if (d.decision !== 'Allow') {
      const err = forbiddenStatusError(attrs, d.reason);
      ctx.stage({ stage: 'impersonation', verdict: 'rejected', rule: d.reason || undefined, detail: err.message });
      throw err;
    }
  }
  if (username !== ANONYMOUS) {
    if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_UNAUTHENTICATED);
  ctx.impersonatedBy = requestor.username;
  ctx.stage({ stage: 'impersonation', verdict: 'passed', detail: `${requestor.username} as ${username}` });
  return { username, uid, groups, extra };
}
