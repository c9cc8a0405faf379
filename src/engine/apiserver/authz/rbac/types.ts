/**
 * The rbac.authorization.k8s.io/v1 types the authorizer reads (PolicyRule, Subject, RoleRef, generated),
 * and tolerant readers that turn stored objects into them: a decision must never throw on a
 * malformed object, it just finds no rules or subjects in it.
 */
import type { KubeObject } from '../../../api/types';
import type { PolicyRule, RoleRef, Subject } from '../../../api/generated/rbac-v1';

export type { PolicyRule, RoleRef, Subject };

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : undefined;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** One rule as the API stores it; absent lists stay absent, as in the wire format. */
export function toPolicyRule(v: unknown): PolicyRule {
  const r = isRecord(v) ? v : {};
  const rule: PolicyRule = { verbs: strings(r.verbs) ?? [] };
  const apiGroups = strings(r.apiGroups);
  const resources = strings(r.resources);
  const resourceNames = strings(r.resourceNames);
  const nonResourceURLs = strings(r.nonResourceURLs);
  if (apiGroups) rule.apiGroups = apiGroups;
  if (resources) rule.resources = resources;
  if (resourceNames) rule.resourceNames = resourceNames;
  if (nonResourceURLs) rule.nonResourceURLs = nonResourceURLs;
  return rule;
}

export function rulesOf(role: KubeObject): PolicyRule[] {
  return Array.isArray(role.rules) ? role.rules.map(toPolicyRule) : [];
}

export function subjectsOf(binding: KubeObject): Subject[] {
  if (!Array.isArray(binding.subjects)) return [];
  return binding.subjects.map((v: unknown) => {
    const s = isRecord(v) ? v : {};
    const subject: Subject = { kind: str(s.kind), name: str(s.name) };
    if (typeof s.apiGroup === 'string') subject.apiGroup = s.apiGroup;
    if (typeof s.namespace === 'string') subject.namespace = s.namespace;
    return subject;
  });
}

export function roleRefOf(binding: KubeObject): RoleRef {
  const r = isRecord(binding.roleRef) ? binding.roleRef : {};
  return { apiGroup: str(r.apiGroup), kind: str(r.kind), name: str(r.name) };
}
