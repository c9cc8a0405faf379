/**
 * Does one PolicyRule allow a request (plugin/pkg/auth/authorizer/rbac RuleAllows and the
 * pkg/apis/rbac/v1 evaluation helpers): "*" verbs, groups and resources, "resource/subresource"
 * resources and a "*" resource followed by "/subresource" (any resource's subresource),
 * resourceNames (empty means all), and non-resource URLs where a trailing "*" matches any path
 * with that prefix.
 */
import type { PolicyRule } from './types';

/** What RuleAllows reads of a request (authz Attributes has all of it). */
export interface RuleRequest {
  readonly isResourceRequest: boolean;
  readonly verb: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly path: string;
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combinedResource) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceURLMatches(rule: PolicyRule, url: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === '*' || u === url) return true;
    if (u.endsWith('*') && url.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(req: RuleRequest, rule: PolicyRule): boolean {
  if (!req.isResourceRequest) return verbMatches(rule, req.verb) && nonResourceURLMatches(rule, req.path);
  const combined = req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
  return (
    verbMatches(rule, req.verb) &&
    apiGroupMatches(rule, req.apiGroup) &&
    resourceMatches(rule, combined, req.subresource) &&
    resourceNameMatches(rule, req.name)
  );
}

export function rulesAllow(req: RuleRequest, rules: readonly PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(req, r));
}
