/**
 * HorizontalPodAutoscaler (autoscaling/v2) rules (pkg/apis/autoscaling/validation): replica
 * bounds, the scale target, one populated source per metric with a target that fits its type,
 * and the scale-up/scale-down behaviour policies.
 */
import { forbidden, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { isDNS1123Label, isValidPathSegmentName, nameIsDNSSubdomain } from '../../../api/names';
import { quantityOrUndefined, type Quantity } from '../../../api/quantity';
import type { KubeObject } from '../../../api/types';
import { int, num, obj, objs, str } from '../core/json';
import { isExtendedResourceName, isNativeResource, isStandardContainerResourceName } from '../core/resourcenames';
import { validateResourceName } from '../core/resources';
import { validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { own } from '../../../api/own';

const maxPeriodSeconds = 1800;
const maxStabilizationWindowSeconds = 3600;
const validSelectPolicies = ['Disabled', 'Max', 'Min'];
const validPolicyTypes = ['Percent', 'Pods'];
const validMetricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

/** ValidateCrossVersionObjectReference: kind and name must be usable in a REST path. */
function validateCrossVersionObjectReference(ref: unknown, fldPath: Path): ErrorList {
  const r = obj(ref) ?? {};
  const errs: ErrorList = [];
  for (const f of ['kind', 'name'] as const) {
    const v = str(r[f]);
    if (v === '') errs.push(required(fldPath.child(f), ''));
    else for (const msg of isValidPathSegmentName(v)) errs.push(invalid(fldPath.child(f), v, msg));
  }
  return errs;
}

/** core/v1 ValidateContainerResourceName (its extended-resource message differs from the internal one). */
function validateContainerResourceName(name: string, fldPath: Path): ErrorList {
  const errs = validateResourceName(name, fldPath);
  if (!name.includes('/')) {
    if (!isStandardContainerResourceName(name)) errs.push(invalid(fldPath, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(invalid(fldPath, name, "doesn't have a resource name that is an extended resource"));
  }
  return errs;
}

function quantity(v: unknown): Quantity | undefined {
  if (typeof v !== 'number' && typeof v !== 'string') return undefined;
  return quantityOrUndefined(String(v));
}

function validateMetricTarget(target: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const type = str(target['type']);
  if (type === '') errs.push(required(fldPath.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') {
    errs.push(invalid(fldPath.child('type'), type, 'must be either Utilization, Value, or AverageValue'));
  }
  for (const f of ['value', 'averageValue'] as const) {
    const q = quantity(target[f]);
    if (q && q.sign() !== 1) errs.push(invalid(fldPath.child(f), q.toString(), 'must be positive'));
  }
  const utilization = num(target['averageUtilization']);
  if (utilization !== undefined && utilization < 1) errs.push(invalid(fldPath.child('averageUtilization'), utilization, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(id: unknown, fldPath: Path): ErrorList {
  const name = str(obj(id)?.['name']);
  if (name === '') return [required(fldPath.child('name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => invalid(fldPath.child('name'), name, msg));
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

function validateObjectSource(src: Record<string, unknown>, fldPath: Path): ErrorList {
  const target = obj(src['target']) ?? {};
  const errs = [
    ...validateCrossVersionObjectReference(src['describedObject'], fldPath.child('describedObject')),
    ...validateMetricIdentifier(src['metric'], fldPath.child('metric')),
    ...validateMetricTarget(target, fldPath.child('target')),
  ];
  if (!isSet(target['value']) && !isSet(target['averageValue'])) {
    errs.push(required(fldPath.child('target', 'averageValue'), 'must set either a target value or averageValue'));
  }
  return errs;
}

function validateExternalSource(src: Record<string, unknown>, fldPath: Path): ErrorList {
  const target = obj(src['target']) ?? {};
  const errs = [...validateMetricIdentifier(src['metric'], fldPath.child('metric')), ...validateMetricTarget(target, fldPath.child('target'))];
  if (!isSet(target['value']) && !isSet(target['averageValue'])) {
    errs.push(required(fldPath.child('target', 'averageValue'), 'must set either a target value for metric or a per-pod target'));
  }
  if (isSet(target['value']) && isSet(target['averageValue'])) {
    errs.push(forbidden(fldPath.child('target', 'value'), 'may not set both a target value for metric and a per-pod target'));
  }
  return errs;
}

function validatePodsSource(src: Record<string, unknown>, fldPath: Path): ErrorList {
  const target = obj(src['target']) ?? {};
  const errs = [...validateMetricIdentifier(src['metric'], fldPath.child('metric')), ...validateMetricTarget(target, fldPath.child('target'))];
  if (!isSet(target['averageValue'])) errs.push(required(fldPath.child('target', 'averageValue'), 'must specify a positive target averageValue'));
  return errs;
}

function validateUtilizationOrValue(target: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (!isSet(target['averageUtilization']) && !isSet(target['averageValue'])) {
    errs.push(required(fldPath.child('target', 'averageUtilization'), 'must set either a target raw value or a target utilization'));
  }
  if (isSet(target['averageUtilization']) && isSet(target['averageValue'])) {
    errs.push(forbidden(fldPath.child('target', 'averageValue'), 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

function validateResourceSource(src: Record<string, unknown>, fldPath: Path): ErrorList {
  const target = obj(src['target']) ?? {};
  const name = str(src['name']);
  const errs = name === '' ? [required(fldPath.child('name'), 'must specify a resource name')] : validateContainerResourceName(name, fldPath.child('name'));
  return [...errs, ...validateMetricTarget(target, fldPath.child('target')), ...validateUtilizationOrValue(target, fldPath)];
}

function validateContainerResourceSource(src: Record<string, unknown>, fldPath: Path): ErrorList {
  const target = obj(src['target']) ?? {};
  const name = str(src['name']);
  const errs = name === '' ? [required(fldPath.child('name'), 'must specify a resource name')] : validateContainerResourceName(name, fldPath.child('name'));
  const container = str(src['container']);
  if (container === '') errs.push(required(fldPath.child('container'), 'must specify a container'));
  else for (const msg of isDNS1123Label(container)) errs.push(invalid(fldPath.child('container'), container, msg));
  return [...errs, ...validateMetricTarget(target, fldPath.child('target')), ...validateUtilizationOrValue(target, fldPath)];
}

const sourceValidators: [string, (src: Record<string, unknown>, p: Path) => ErrorList][] = [
  ['object', validateObjectSource],
  ['external', validateExternalSource],
  ['pods', validatePodsSource],
  ['resource', validateResourceSource],
  ['containerResource', validateContainerResourceSource],
];

const expectedSourceField: Record<string, string> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};

function validateMetricSpec(spec: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const type = str(spec['type']);
  if (type === '') errs.push(required(fldPath.child('type'), 'must specify a metric source type'));
  if (!validMetricSourceTypes.includes(type)) errs.push(notSupported(fldPath.child('type'), type, validMetricSourceTypes));
  // Only the first populated source is validated; any others are reported below.
  const present: string[] = [];
  for (const [field, validate] of sourceValidators) {
    const src = obj(own(spec, field));
    if (!src) continue;
    present.push(field);
    if (present.length === 1) errs.push(...validate(src, fldPath.child(field)));
  }
  const expected = own(expectedSourceField, type);
  if (expected !== undefined) {
    if (!obj(own(spec, expected))) errs.push(required(fldPath.child(expected), 'must populate information for the given metric source'));
  } else {
    errs.push(notSupported(fldPath.child('type'), type, validMetricSourceTypes));
  }
  if (present.length !== 1) {
    for (const field of present) {
      if (field !== expected) errs.push(forbidden(fldPath.child(field), 'must populate the given metric source only'));
    }
  }
  return errs;
}

function validateMetrics(metrics: unknown, fldPath: Path, minReplicas: number | undefined): ErrorList {
  const list = objs(metrics);
  const errs = list.flatMap((m, i) => validateMetricSpec(m, fldPath.index(i)));
  if (minReplicas === 0 && !list.some((m) => m['type'] === 'Object' || m['type'] === 'External')) {
    errs.push(forbidden(fldPath, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  return errs;
}

function validateScalingPolicy(policy: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const type = str(policy['type']);
  if (!validPolicyTypes.includes(type)) errs.push(notSupported(fldPath.child('type'), type, validPolicyTypes));
  const value = int(policy['value']);
  if (value <= 0) errs.push(invalid(fldPath.child('value'), value, 'must be greater than zero'));
  const period = int(policy['periodSeconds']);
  if (period <= 0) errs.push(invalid(fldPath.child('periodSeconds'), period, 'must be greater than zero'));
  if (period > maxPeriodSeconds) errs.push(invalid(fldPath.child('periodSeconds'), period, `must be less than or equal to ${maxPeriodSeconds}`));
  return errs;
}

function validateScalingRules(rules: unknown, fldPath: Path): ErrorList {
  const r = obj(rules);
  if (!r) return [];
  const errs: ErrorList = [];
  const window = num(r['stabilizationWindowSeconds']);
  if (window !== undefined && window < 0) errs.push(invalid(fldPath.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > maxStabilizationWindowSeconds) {
    errs.push(invalid(fldPath.child('stabilizationWindowSeconds'), window, `must be less than or equal to ${maxStabilizationWindowSeconds}`));
  }
  // HPAConfigurableTolerance (beta in 1.35): a per-direction tolerance that may not be negative.
  const tolerance = quantity(r['tolerance']);
  if (tolerance && tolerance.sign() < 0) errs.push(invalid(fldPath.child('tolerance'), tolerance.toString(), 'must be greater than or equal to zero'));
  const select = r['selectPolicy'];
  if (typeof select === 'string' && !validSelectPolicies.includes(select)) errs.push(notSupported(fldPath.child('selectPolicy'), select, validSelectPolicies));
  const policies = objs(r['policies']);
  if (policies.length === 0) errs.push(required(fldPath.child('policies'), 'must specify at least one Policy'));
  policies.forEach((p, i) => errs.push(...validateScalingPolicy(p, fldPath.child('policies').index(i))));
  return errs;
}

function validateSpec(spec: unknown, fldPath: Path, minReplicasLowerBound: number): ErrorList {
  const s = obj(spec) ?? {};
  const errs: ErrorList = [];
  const minReplicas = num(s['minReplicas']);
  const maxReplicas = int(s['maxReplicas']);
  if (minReplicas !== undefined && minReplicas < minReplicasLowerBound) {
    errs.push(invalid(fldPath.child('minReplicas'), minReplicas, `must be greater than or equal to ${minReplicasLowerBound}`));
  }
  if (maxReplicas < 1) errs.push(invalid(fldPath.child('maxReplicas'), maxReplicas, 'must be greater than 0'));
  if (minReplicas !== undefined && maxReplicas < minReplicas) errs.push(invalid(fldPath.child('maxReplicas'), maxReplicas, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(s['scaleTargetRef'], fldPath.child('scaleTargetRef')));
  errs.push(...validateMetrics(s['metrics'], fldPath.child('metrics'), minReplicas));
  const behavior = obj(s['behavior']);
  if (behavior) {
    errs.push(...validateScalingRules(behavior['scaleUp'], fldPath.child('behavior', 'scaleUp')));
    errs.push(...validateScalingRules(behavior['scaleDown'], fldPath.child('behavior', 'scaleDown')));
  }
  return errs;
}

/** HPAScaleToZero is alpha (off) in 1.35: minReplicas may only be 0 when it already was. */
function minReplicasLowerBound(old: KubeObject | undefined): number {
  return old && num(obj(old['spec'])?.['minReplicas']) === 0 ? 0 : 1;
}

registerValidator('autoscaling', 'HorizontalPodAutoscaler', {
  create: (hpa) => [
    ...validateObjectMeta(hpa.metadata, true, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateSpec(hpa['spec'], Path.root('spec'), minReplicasLowerBound(undefined)),
  ],
  update: (hpa, old) => [
    ...validateObjectMetaUpdate(hpa.metadata, old.metadata, Path.root('metadata')),
    ...validateSpec(hpa['spec'], Path.root('spec'), minReplicasLowerBound(old)),
  ],
  updateStatus: (hpa, old) => {
    const status = obj(hpa['status']) ?? {};
    return [
      ...validateObjectMetaUpdate(hpa.metadata, old.metadata, Path.root('metadata')),
      ...validateNonnegativeField(int(status['currentReplicas']), Path.root('status', 'currentReplicas')),
      ...validateNonnegativeField(int(status['desiredReplicas']), Path.root('status', 'desiredReplicas')),
    ];
  },
});
