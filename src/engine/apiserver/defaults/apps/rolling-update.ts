/**
 * The rollout strategy defaults Deployments and DaemonSets share: an empty type becomes
 * RollingUpdate, and a RollingUpdate strategy's rolling update block, created when absent, gets
 * the kind's maxUnavailable and maxSurge where they are not set.
 */
import type { JsonObject, JsonValue } from '../../../api/types';
import { defaultEmptyString, defaultNil, structAt } from '../fields';

export function defaultRollingUpdateStrategy(spec: JsonObject, field: string, maxUnavailable: JsonValue, maxSurge: JsonValue): void {
  const strategy = structAt(spec, field);
  if (!strategy) return;
  defaultEmptyString(strategy, 'type', 'RollingUpdate');
  if (strategy.type !== 'RollingUpdate') return;
  const rollingUpdate = structAt(strategy, 'rollingUpdate');
  if (!rollingUpdate) return;
  defaultNil(rollingUpdate, 'maxUnavailable', maxUnavailable);
  defaultNil(rollingUpdate, 'maxSurge', maxSurge);
}
