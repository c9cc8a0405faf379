/**
 * A quota's scopes (spec.scopes and spec.scopeSelector) and how a scope selector requirement
 * matches: as a label selector requirement on the single label <scopeName>=<value>
 * (ScopedResourceSelectorRequirementsAsSelector), over the values the object has for it.
 */
import { isObject, type KubeObject } from '../../../api/types';

export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values: string[];
}

/** spec.scopes as Exists requirements, then spec.scopeSelector's (getScopeSelectorsFromQuota). */
export function quotaScopes(quota: KubeObject): ScopeRequirement[] {
  const spec = isObject(quota.spec) ? quota.spec : {};
  const scopes = Array.isArray(spec.scopes) ? spec.scopes.filter((s): s is string => typeof s === 'string') : [];
  const selector = isObject(spec.scopeSelector) ? spec.scopeSelector : {};
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isObject) : [];
  return [
    ...scopes.map((scopeName) => ({ scopeName, operator: 'Exists', values: [] })),
    ...exprs.map((e) => ({
      scopeName: String(e.scopeName ?? ''),
      operator: String(e.operator ?? ''),
      values: Array.isArray(e.values) ? e.values.map(String) : [],
    })),
  ];
}

/** Whether the requirement selects an object whose label for the scope has any of `present` (none: no label). */
export function selectorMatches(r: ScopeRequirement, present: readonly string[]): boolean {
  switch (r.operator) {
    case 'In':
      return present.some((v) => r.values.includes(v));
    case 'NotIn':
      return present.length === 0 || present.some((v) => !r.values.includes(v));
    case 'Exists':
      return present.length > 0;
    case 'DoesNotExist':
      return present.length === 0;
    default:
      return false;
  }
}
