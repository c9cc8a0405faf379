/**
 * What an object counts against a quota (pkg/quota/v1/evaluator/core and the generic object
 * count evaluator): every object counts as count/<resource>[.<group>] (configmaps, secrets,
 * resourcequotas and replicationcontrollers also under their legacy names); pods, services and
 * persistent volume claims have evaluators of their own (pods.ts, services.ts, claims.ts).
 */
import { Quantity } from '../../../api/quantity';
import type { KubeObject } from '../../../api/types';
import type { Operation } from '../types';
import { claimEvaluator } from './claims';
import { podEvaluator } from './pods';
import type { ResourceList } from './resources';
import { quotaScopes } from './scopes';
import { serviceEvaluator } from './services';
import { table } from '../../../api/own';

export interface Evaluator {
  /** Whether the quota resource name is one this evaluator accounts for (MatchingResources). */
  matchesResource(name: string): boolean;
  /** Whether every scope of the quota selects the object (a quota without scopes selects all). */
  matchesScopes(quota: KubeObject, obj: KubeObject): boolean;
  /** What the object uses at `nowMs` (pods stop being charged some time after their deletion). */
  usage(obj: KubeObject, nowMs: number): ResourceList;
  /** Resource names the quota restricts that the object must set (pod requests and limits). */
  constraints(restricted: readonly string[], obj: KubeObject): string | undefined;
  handles(operation: Operation, subresource: string): boolean;
}

const LEGACY_COUNT_NAMES = table<string>({
  configmaps: 'configmaps',
  resourcequotas: 'resourcequotas',
  replicationcontrollers: 'replicationcontrollers',
  secrets: 'secrets',
});

function objectCount(group: string, resource: string): Evaluator {
  const names = new Set([group ? `count/${resource}.${group}` : `count/${resource}`]);
  const legacy = group === '' ? LEGACY_COUNT_NAMES[resource] : undefined;
  if (legacy) names.add(legacy);
  return {
    matchesResource: (n) => names.has(n),
    matchesScopes: (quota) => quotaScopes(quota).length === 0,
    usage: () => new Map([...names].map((n) => [n, Quantity.fromInt(1)])),
    constraints: () => undefined,
    handles: (op, sub) => op === 'CREATE' && sub === '',
  };
}

export function evaluatorFor(group: string, resource: string): Evaluator {
  if (group === '' && resource === 'pods') return podEvaluator;
  if (group === '' && resource === 'services') return serviceEvaluator;
  if (group === '' && resource === 'persistentvolumeclaims') return claimEvaluator;
  return objectCount(group, resource);
}
