/**
 * Matching defaults shared by webhooks and admission policies: rules cover all scopes, "rules"
 * match equivalent versions of a resource, and absent selectors match everything.
 */
import type { JsonObject } from '../../../api/types';
import { defaultNil, objectsIn } from '../fields';

export function defaultRules(holder: JsonObject, key: string): void {
  for (const rule of objectsIn(holder, key)) defaultNil(rule, 'scope', '*');
}

export function defaultMatching(holder: JsonObject): void {
  defaultNil(holder, 'matchPolicy', 'Equivalent');
  defaultNil(holder, 'namespaceSelector', {});
  defaultNil(holder, 'objectSelector', {});
}
