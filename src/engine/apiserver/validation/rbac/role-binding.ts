/**
 * RoleBinding and ClusterRoleBinding rules (pkg/apis/rbac/validation). The roleRef cannot change
 * once created: a binding is rebound by deleting and recreating it.
 */
import { invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { validateServiceAccountName } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { obj, objs, str } from '../core/json';
import { validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { rbacGroup, validateRBACName } from './names';

/** ValidateRoleBindingSubject: ServiceAccounts live in the core group; users and groups in rbac. */
function validateRoleBindingSubject(subject: unknown, isNamespaced: boolean, fldPath: Path): ErrorList {
  const s = obj(subject) ?? {};
  const name = str(s['name']);
  const apiGroup = str(s['apiGroup']);
  const errs: ErrorList = [];
  if (name.length === 0) errs.push(required(fldPath.child('name'), ''));
  switch (str(s['kind'])) {
    case 'ServiceAccount':
      if (name.length > 0) {
        for (const msg of validateServiceAccountName(name, false)) errs.push(invalid(fldPath.child('name'), name, msg));
      }
      if (apiGroup.length > 0) errs.push(notSupported(fldPath.child('apiGroup'), apiGroup, ['']));
      if (!isNamespaced && str(s['namespace']).length === 0) errs.push(required(fldPath.child('namespace'), ''));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroup) errs.push(notSupported(fldPath.child('apiGroup'), apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(notSupported(fldPath.child('kind'), str(s['kind']), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(binding: KubeObject, namespaced: boolean): ErrorList {
  const errs = validateObjectMeta(binding.metadata, namespaced, validateRBACName, Path.root('metadata'));
  const ref = obj(binding['roleRef']) ?? {};
  const apiGroup = str(ref['apiGroup']);
  if (apiGroup !== rbacGroup) errs.push(notSupported(Path.root('roleRef', 'apiGroup'), apiGroup, [rbacGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = str(ref['kind']);
  if (!kinds.includes(kind)) errs.push(notSupported(Path.root('roleRef', 'kind'), kind, kinds));
  const name = str(ref['name']);
  if (name.length === 0) errs.push(required(Path.root('roleRef', 'name'), ''));
  else for (const msg of validateRBACName(name, false)) errs.push(invalid(Path.root('roleRef', 'name'), name, msg));
  objs(binding['subjects']).forEach((s, i) => errs.push(...validateRoleBindingSubject(s, namespaced, Path.root('subjects').index(i))));
  return errs;
}

/** The internal RoleRef as encoding/json renders it: Go field names, declaration order. */
function roleRefValue(ref: unknown): Map<string, string> {
  const r = obj(ref) ?? {};
  return new Map([
    ['APIGroup', str(r['apiGroup'])],
    ['Kind', str(r['kind'])],
    ['Name', str(r['name'])],
  ]);
}

// On update the registry strategy runs the create rules and then the update rules, which run
// them again: upstream reports those errors twice (the Status message dedupes them).
function validateBindingUpdate(binding: KubeObject, old: KubeObject, namespaced: boolean): ErrorList {
  const errs = [...validateBinding(binding, namespaced), ...validateBinding(binding, namespaced), ...validateObjectMetaUpdate(binding.metadata, old.metadata, Path.root('metadata'))];
  const ref = roleRefValue(binding['roleRef']);
  const oldRef = roleRefValue(old['roleRef']);
  if ([...ref].some(([k, v]) => oldRef.get(k) !== v)) errs.push(invalid(Path.root('roleRef'), ref, 'cannot change roleRef'));
  return errs;
}

registerValidator(rbacGroup, 'RoleBinding', {
  create: (b) => validateBinding(b, true),
  update: (b, old) => validateBindingUpdate(b, old, true),
});

registerValidator(rbacGroup, 'ClusterRoleBinding', {
  create: (b) => validateBinding(b, false),
  update: (b, old) => validateBindingUpdate(b, old, false),
});
