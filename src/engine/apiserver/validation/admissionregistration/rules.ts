/**
 * Rule checks shared by webhooks and admission policies (pkg/apis/admissionregistration/
 * validation): which groups, versions, resources and operations a hook or policy matches.
 */
import { duplicate, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { validatePathSegmentName } from '../../../api/names';
import { obj, objs, strs } from '../core/json';
import { validateLabelSelector } from '../meta';

const validScopes = ['*', 'Cluster', 'Namespaced'];
const supportedOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
export const supportedMatchPolicies = ['Equivalent', 'Exact'];

const hasWildcard = (list: string[]): boolean => list.includes('*');

/** validateResources: "pods", "pods/status", "*", "pods/*", "*\/status", "*\/*" without overlaps. */
function validateResources(resources: string[], fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (resources.length === 0) errs.push(required(fldPath, ''));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(fldPath.index(i), ''));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSub = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res)) errs.push(invalid(fldPath.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) errs.push(invalid(fldPath.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(fldPath, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(invalid(fldPath, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

function validateRule(rule: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const groups = strs(rule['apiGroups']);
  if (groups.length === 0) errs.push(required(fldPath.child('apiGroups'), ''));
  if (groups.length > 1 && hasWildcard(groups)) errs.push(invalid(fldPath.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  const versions = strs(rule['apiVersions']);
  if (versions.length === 0) errs.push(required(fldPath.child('apiVersions'), ''));
  if (versions.length > 1 && hasWildcard(versions)) errs.push(invalid(fldPath.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(fldPath.child('apiVersions').index(i), ''));
  });
  errs.push(...validateResources(strs(rule['resources']), fldPath.child('resources')));
  const scope = rule['scope'];
  if (typeof scope === 'string' && !validScopes.includes(scope)) errs.push(notSupported(fldPath.child('scope'), scope, validScopes));
  return errs;
}

export function validateRuleWithOperations(rule: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const ops = strs(rule['operations']);
  if (ops.length === 0) errs.push(required(fldPath.child('operations'), ''));
  if (ops.length > 1 && hasWildcard(ops)) errs.push(invalid(fldPath.child('operations'), ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!supportedOperations.includes(op)) errs.push(notSupported(fldPath.child('operations').index(i), op, supportedOperations));
  });
  return [...errs, ...validateRule(rule, fldPath)];
}

function validateNamedRuleWithOperations(rule: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  strs(rule['resourceNames']).forEach((name, i) => {
    const p = fldPath.child('resourceNames').index(i);
    for (const msg of validatePathSegmentName(name, false)) errs.push(invalid(p, name, msg));
    if (seen.has(name)) errs.push(duplicate(p, name));
    else seen.add(name);
  });
  return [...errs, ...validateRuleWithOperations(rule, fldPath)];
}

/** validateMatchResources: selectors are validated strictly, as the type postdates the relaxed rules. */
export function validateMatchResources(match: unknown, fldPath: Path): ErrorList {
  const m = obj(match);
  if (!m) return [];
  const errs: ErrorList = [];
  const policy = m['matchPolicy'];
  if (typeof policy !== 'string') errs.push(required(fldPath.child('matchPolicy'), ''));
  else if (!supportedMatchPolicies.includes(policy)) errs.push(notSupported(fldPath.child('matchPolicy'), policy, supportedMatchPolicies));
  for (const selector of ['namespaceSelector', 'objectSelector'] as const) {
    if (!obj(m[selector])) errs.push(required(fldPath.child(selector), ''));
    else errs.push(...validateLabelSelector(m[selector], { allowInvalidLabelValueInSelector: false }, fldPath.child(selector)));
  }
  objs(m['resourceRules']).forEach((r, i) => errs.push(...validateNamedRuleWithOperations(r, fldPath.child('resourceRules').index(i))));
  objs(m['excludeResourceRules']).forEach((r, i) => errs.push(...validateNamedRuleWithOperations(r, fldPath.child('excludeResourceRules').index(i))));
  return errs;
}
