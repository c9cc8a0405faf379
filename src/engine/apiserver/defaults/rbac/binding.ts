/**
 * RoleBinding and ClusterRoleBinding defaults: roleRef's apiGroup, and each subject's apiGroup by
 * kind (users and groups belong to rbac.authorization.k8s.io, service accounts to the core group).
 */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, isEmptyString, jsonDefaulter, objectsIn, structAt } from '../fields';
import { registerDefaulter } from '../registry';

const rbacGroup = 'rbac.authorization.k8s.io';

function defaultSubject(subject: JsonObject): void {
  if (!isEmptyString(subject.apiGroup)) return;
  if (subject.kind === 'ServiceAccount') subject.apiGroup = '';
  else if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = rbacGroup;
}

export function defaultBinding(binding: JsonObject): void {
  const roleRef = structAt(binding, 'roleRef');
  if (roleRef) defaultEmptyString(roleRef, 'apiGroup', rbacGroup);
  for (const subject of objectsIn(binding, 'subjects')) defaultSubject(subject);
}

registerDefaulter(rbacGroup, 'RoleBinding', jsonDefaulter(defaultBinding));
registerDefaulter(rbacGroup, 'ClusterRoleBinding', jsonDefaulter(defaultBinding));
