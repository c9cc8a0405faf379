/**
 * ClusterRole aggregation (pkg/controller/clusterroleaggregation): a ClusterRole with an
 * aggregationRule gets the rules of every other ClusterRole its clusterRoleSelectors match,
 * selector by selector, matched roles in name order, each rule once. The controller syncs one role
 * at a time from current state; chains (admin <- edit <- view) settle over successive syncs.
 */
import type { KubeObject } from '../../../api/types';
import { isObject } from '../../../api/types';
import { labelSelectorAsSelector, type LabelSelector } from '../../../api/labels';
import { ok, type Result } from '../../../api/result';
import { byteOrder } from './format';
import { rulesOf, toPolicyRule, type PolicyRule } from './types';

function selectorsOf(role: KubeObject): LabelSelector[] | undefined {
  const rule = role.aggregationRule;
  if (!isObject(rule)) return undefined;
  const selectors = rule.clusterRoleSelectors;
  return Array.isArray(selectors) ? selectors.filter(isObject).map((s) => s as LabelSelector) : [];
}

// equality.Semantic.DeepEqual of two rules: absent and empty lists are equal.
function ruleEqual(a: PolicyRule, b: PolicyRule): boolean {
  const same = (x: readonly string[] | undefined, y: readonly string[] | undefined): boolean => {
    const xs = x ?? [];
    const ys = y ?? [];
    return xs.length === ys.length && xs.every((v, i) => v === ys[i]);
  };
  return (
    same(a.verbs, b.verbs) &&
    same(a.apiGroups, b.apiGroups) &&
    same(a.resources, b.resources) &&
    same(a.resourceNames, b.resourceNames) &&
    same(a.nonResourceURLs, b.nonResourceURLs)
  );
}

export function rulesEqual(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((r, i) => ruleEqual(r, b[i]!));
}

/**
 * The rules the controller sets on `role` given all ClusterRoles: undefined when the role has no
 * aggregationRule, the selector's error when one cannot be parsed (the controller retries).
 */
export function aggregateRulesFor(role: KubeObject, clusterRoles: readonly KubeObject[]): Result<PolicyRule[]> | undefined {
  const selectors = selectorsOf(role);
  if (selectors === undefined) return undefined;
  const byName = [...clusterRoles].sort((a, b) => byteOrder(a.metadata.name ?? '', b.metadata.name ?? ''));
  const rules: PolicyRule[] = [];
  for (const s of selectors) {
    const parsed = labelSelectorAsSelector(s);
    if (!parsed.ok) return parsed;
    const selector = parsed.value;
    for (const other of byName) {
      if (other.metadata.name === role.metadata.name || !selector.matches(other.metadata.labels ?? {})) continue;
      for (const rule of rulesOf(other)) if (!rules.some((r) => ruleEqual(r, rule))) rules.push(rule);
    }
  }
  return ok(rules);
}

/**
 * Every aggregated ClusterRole with its settled rules: the state the controller reaches once it
 * stops changing anything (roles with unparsable selectors keep their rules).
 */
export function aggregateClusterRoles(clusterRoles: readonly KubeObject[]): KubeObject[] {
  let roles = clusterRoles.map((r) => ({ ...r }));
  // Each pass can only carry rules one link further down a chain; the chain is at most as long as the list.
  for (let pass = 0; pass <= roles.length; pass++) {
    let changed = false;
    roles = roles.map((role) => {
      const rules = aggregateRulesFor(role, roles);
      if (rules === undefined || !rules.ok || rulesEqual(rules.value, rulesOf(role))) return role;
      changed = true;
      return { ...role, rules: rules.value.map((r) => toPolicyRule(r)) };
    });
    if (!changed) break;
  }
  return roles;
}
