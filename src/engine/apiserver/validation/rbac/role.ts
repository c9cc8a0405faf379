/**
 * Role and ClusterRole rules (pkg/apis/rbac/validation): every rule needs verbs, and resource
 * rules need groups and resources, while URL rules only make sense cluster-wide.
 */
import { invalid, Path, required, type ErrorList } from '../../../api/field';
import type { KubeObject } from '../../../api/types';
import { arr, obj, objs, strs } from '../core/json';
import { validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { selectorOf } from '../apps/template';
import { rbacGroup, validateRBACName } from './names';

/** ValidatePolicyRule: a rule in a Role is namespaced and cannot name non-resource URLs. */
function validatePolicyRule(rule: unknown, isNamespaced: boolean, fldPath: Path): ErrorList {
  const r = obj(rule) ?? {};
  const errs: ErrorList = [];
  if (arr(r['verbs']).length === 0) errs.push(required(fldPath.child('verbs'), 'verbs must contain at least one value'));
  const urls = strs(r['nonResourceURLs']);
  if (urls.length > 0) {
    if (isNamespaced) errs.push(invalid(fldPath.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (arr(r['apiGroups']).length > 0 || arr(r['resources']).length > 0 || arr(r['resourceNames']).length > 0) {
      errs.push(invalid(fldPath.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (arr(r['apiGroups']).length === 0) errs.push(required(fldPath.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (arr(r['resources']).length === 0) errs.push(required(fldPath.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(role: KubeObject, isNamespaced: boolean): ErrorList {
  return objs(role['rules']).flatMap((rule, i) => validatePolicyRule(rule, isNamespaced, Path.root('rules').index(i)));
}

function validateRole(role: KubeObject): ErrorList {
  return [...validateObjectMeta(role.metadata, true, validateRBACName, Path.root('metadata')), ...validateRules(role, true)];
}

/** An aggregating ClusterRole collects the rules of the ClusterRoles its selectors pick. */
function validateAggregationRule(rule: unknown, allowInvalidLabelValue: boolean): ErrorList {
  const r = obj(rule);
  if (!r) return [];
  const selectorsPath = Path.root('aggregationRule', 'clusterRoleSelectors');
  const errs: ErrorList = [];
  const selectors = arr(r['clusterRoleSelectors']);
  if (selectors.length === 0) errs.push(required(selectorsPath, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((selector, i) => {
    const p = selectorsPath.index(i);
    errs.push(...validateLabelSelector(selector, { allowInvalidLabelValueInSelector: allowInvalidLabelValue }, p));
    // The failed conversion leaves a nil selector, which is what upstream reports.
    if (!selectorOf(selector).ok) errs.push(invalid(p, null, 'invalid label selector.'));
  });
  return errs;
}

function validateClusterRole(role: KubeObject, allowInvalidLabelValue: boolean): ErrorList {
  return [
    ...validateObjectMeta(role.metadata, false, validateRBACName, Path.root('metadata')),
    ...validateRules(role, false),
    ...validateAggregationRule(role['aggregationRule'], allowInvalidLabelValue),
  ];
}

/** Stored ClusterRoles whose selectors predate strict label-value checks stay updatable. */
function hasInvalidLabelValueInAggregation(role: KubeObject): boolean {
  const selectors = arr(obj(role['aggregationRule'])?.['clusterRoleSelectors']);
  return selectors.some((s) => validateLabelSelector(s, { allowInvalidLabelValueInSelector: false }, Path.root('x')).length > 0);
}

// On update the registry strategy runs the create rules and then the update rules, which run
// them again: upstream reports those errors twice (the Status message dedupes them).
registerValidator(rbacGroup, 'Role', {
  create: (role) => validateRole(role),
  update: (role, old) => [...validateRole(role), ...validateRole(role), ...validateObjectMetaUpdate(role.metadata, old.metadata, Path.root('metadata'))],
});

registerValidator(rbacGroup, 'ClusterRole', {
  create: (role) => validateClusterRole(role, false),
  update: (role, old) => [
    ...validateClusterRole(role, false),
    ...validateClusterRole(role, hasInvalidLabelValueInAggregation(old)),
    ...validateObjectMetaUpdate(role.metadata, old.metadata, Path.root('metadata')),
  ],
});

