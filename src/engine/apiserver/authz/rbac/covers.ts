/**
 * Whether one set of rules covers another (k8s.io/component-helpers/auth/rbac/validation Covers):
 * the covered rules are broken down into single verb/group/resource/name tuples, and every tuple
 * must be covered by one owner rule. The uncovered tuples are what an escalation message lists.
 */
import type { PolicyRule } from './types';

/** BreakdownRule: at most one verb, group, resource and resourceName (or URL) per rule. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (names.length > 0) {
          for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

const hasAll = (set: readonly string[], contains: readonly string[]): boolean => contains.every((x) => set.includes(x));

function resourceCoversAll(set: readonly string[], covers: readonly string[]): boolean {
  if (set.includes('*') || hasAll(set, covers)) return true;
  for (const path of covers) {
    if (set.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!set.includes('*/' + path.slice(slash + 1))) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));
}

/** ruleCovers: the owner rule covers a broken-down sub-rule. */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerGroups = owner.apiGroups ?? [];
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const verbs = owner.verbs.includes('*') || hasAll(owner.verbs, sub.verbs);
  const groups = ownerGroups.includes('*') || hasAll(ownerGroups, sub.apiGroups ?? []);
  const resources = resourceCoversAll(owner.resources ?? [], sub.resources ?? []);
  const urls = (sub.nonResourceURLs ?? []).every((u) => (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, u)));
  const names = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/** Covers: whether the owner rules cover the servant rules, and the uncovered tuples. */
export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing = servantRules.flatMap(breakdownRule).filter((sub) => !ownerRules.some((o) => ruleCovers(o, sub)));
  return { covered: missing.length === 0, missing };
}
