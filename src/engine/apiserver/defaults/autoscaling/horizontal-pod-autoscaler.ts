/**
 * HorizontalPodAutoscaler defaults. autoscaling/v2: one replica minimum, 80% average CPU when no
 * metric is given, and, only when a behavior block is present, every unset scaling rule field
 * filled from the historical behaviour (scale-down's stabilization window stays unset: the
 * controller's --horizontal-pod-autoscaler-downscale-stabilization flag supplies it).
 * autoscaling/v1 only defaults minReplicas.
 */
import { isObject, parseApiVersion, type JsonObject, type JsonValue } from '../../../api/types';
import { defaultNil, isEmpty, isNil, jsonDefaulter, objectAt, structAt } from '../fields';
import { registerDefaulter } from '../registry';

const defaultCPUUtilization = 80;

function scaleUpRules(): JsonObject {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

function scaleDownRules(): JsonObject {
  return { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** The defaults, overridden by each field the user set. */
function mergeRules(given: JsonValue | undefined, defaults: JsonObject): JsonObject {
  if (!isObject(given)) return defaults;
  const from = given;
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance'] as const) {
    if (!isNil(from[key])) defaults[key] = from[key];
  }
  return defaults;
}

export function defaultHorizontalPodAutoscaler(hpa: JsonObject): void {
  const spec = structAt(hpa, 'spec');
  if (!spec) return;
  defaultNil(spec, 'minReplicas', 1);
  if (typeof hpa.apiVersion === 'string' && parseApiVersion(hpa.apiVersion).version === 'v1') return;
  if (isEmpty(spec.metrics)) {
    spec.metrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: defaultCPUUtilization } },
      },
    ];
  }
  const behavior = objectAt(spec, 'behavior');
  if (behavior) {
    behavior.scaleUp = mergeRules(behavior.scaleUp, scaleUpRules());
    behavior.scaleDown = mergeRules(behavior.scaleDown, scaleDownRules());
  }
}

registerDefaulter('autoscaling', 'HorizontalPodAutoscaler', jsonDefaulter(defaultHorizontalPodAutoscaler));
