/**
 * CompactRules (pkg/registry/rbac/validation/policy_compact.go): the broken-down rules an
 * escalation message lists, merged back where they differ only by verb, so the message reads
 * {APIGroups:["apps"], Resources:["deployments"], Verbs:["create" "delete"]}.
 */
import type { PolicyRule } from './types';

/** The simple-rule key: one group, one resource, at most one name, nothing else; undefined otherwise. */
function simpleKey(r: PolicyRule): string | undefined {
  const groups = r.apiGroups ?? [];
  const resources = r.resources ?? [];
  const names = r.resourceNames ?? [];
  if (names.length > 1 || (r.nonResourceURLs ?? []).length > 0) return undefined;
  if (groups.length !== 1 || resources.length !== 1) return undefined;
  return JSON.stringify([groups[0], resources[0], names.length === 1, names[0] ?? '']);
}

export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleKey(rule);
    if (key === undefined) {
      compacted.push(rule);
      continue;
    }
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...rule.verbs);
    else simple.set(key, { ...rule, verbs: [...rule.verbs] });
  }
  return [...compacted, ...simple.values()];
}
