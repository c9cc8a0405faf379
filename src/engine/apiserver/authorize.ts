/** Authorization of a resource request, recording the rule that decided it. */
import { SYSTEM_MASTERS, type UserInfo } from './authn/user';
import { forbiddenStatusError } from './authz/forbidden';
import { exactNameMatch } from './request-info';
import type { Attributes } from './authz/types';
import type { RequestContext } from './context';

export function requestAttributes(ctx: RequestContext, user: UserInfo): Attributes {
  const r = ctx.request;
  const o = ctx.options;
  // As the RequestInfoResolver does: a list or watch of one name (fieldSelector
  // metadata.name=x) is authorized as a request for that name.
  const selectedName = !r.name && (r.verb === 'list' || r.verb === 'watch') ? exactNameMatch(o.fieldSelector ?? null) : undefined;
  const a: Attributes = {
    user,
    verb: r.verb,
    isResourceRequest: true,
    path: '',
    namespace: r.namespace ?? '',
    apiGroup: r.group,
    apiVersion: r.version,
    resource: r.resource,
    subresource: r.subresource ?? '',
    name: r.name ?? selectedName ?? '',
  };
  if (r.verb === 'list' || r.verb === 'watch' || r.verb === 'deletecollection') {
    return { ...a, labelSelector: o.labelSelector, fieldSelector: o.fieldSelector };
  }
  return a;
}

export async function authorize(ctx: RequestContext, user: UserInfo): Promise<void> {
  const attrs = requestAttributes(ctx, user);
  const d = await ctx.server.authorizer.authorize(attrs);
  if (d.decision === 'Allow') {
    // The privileged-group authorizer allows without a reason, as upstream's does.
    const rule = d.reason || (user.groups.includes(SYSTEM_MASTERS) ? `member of the privileged group "${SYSTEM_MASTERS}"` : '');
    ctx.stage({ stage: 'authorization', verdict: 'passed', rule });
    return;
  }
  const err = forbiddenStatusError(attrs, d.reason);
  ctx.stage({ stage: 'authorization', verdict: 'rejected', rule: d.reason || undefined, detail: err.message });
  throw err;
}
