/**
 * The RBAC registries' escalation check (authz/rbac): a Role or binding is written only by a
 * user who holds what it grants, may escalate or bind, or is in system:masters. It runs where
 * the policy-based storages run it, before the store's create or update.
 */
import type { KubeObject } from '../../api/types';
import { checkBindingWrite, checkRoleWrite, type BindingWrite, type RoleWrite } from '../authz/rbac';
import type { RequestContext, Target } from '../context';

const ROLES = new Set(['roles', 'clusterroles']);
const BINDINGS = new Set(['rolebindings', 'clusterrolebindings']);

export async function checkEscalation(ctx: RequestContext, t: Target, obj: KubeObject, old: KubeObject | undefined): Promise<void> {
  if (t.info.group !== 'rbac.authorization.k8s.io' || t.subresource || !ctx.user) return;
  const escalation = { reader: ctx.server.storage, authorizer: ctx.server.authorizer };
  let err;
  if (ROLES.has(t.info.resource)) {
    err = await checkRoleWrite(
      { user: ctx.user, resource: t.info.resource as RoleWrite['resource'], namespace: t.namespace, requestName: t.name, obj, old },
      escalation,
    );
  } else if (BINDINGS.has(t.info.resource)) {
    err = await checkBindingWrite({ user: ctx.user, resource: t.info.resource as BindingWrite['resource'], namespace: t.namespace, obj, old }, escalation);
  }
  if (!err) return;
  ctx.stage({ stage: 'validation', verdict: 'rejected', rule: 'RBAC escalation check', detail: err.message });
  throw err;
}
