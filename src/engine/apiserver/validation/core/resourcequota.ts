/** ResourceQuota: quota resource names and whole-number counts, scopes and scope selectors. */
import { invalid, Path, required, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { entries, obj, objs, str, strs, type Obj } from './json';
import { fieldImmutableErrorMsg, validateObjectMeta, validateObjectMetaUpdate } from './meta';
import { parseQuantity } from './quantity';
import { validateResourceName, validateResourceQuantityValue } from './resources';
import { isResourceQuotaScopeValidForResource, isStandardQuotaResourceName, isStandardResourceQuotaScope } from './resourcenames';

const isInvalidQuotaResource = 'must be a standard resource for quota';

export function validateResourceQuotaResourceName(name: string, fldPath: Path): ErrorList {
  const errs = validateResourceName(name, fldPath);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) return [...errs, invalid(fldPath, name, isInvalidQuotaResource)];
  return errs;
}

function validateResourceList(list: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  for (const [name, v] of entries(list)) {
    const path = fldPath.key(name);
    errs.push(...validateResourceQuotaResourceName(name, path));
    const q = parseQuantity(v);
    if (q) errs.push(...validateResourceQuantityValue(name, q, path));
  }
  return errs;
}

const conflictingScopes = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

function validateResourceQuotaScopes(spec: Obj, fldPath: Path): ErrorList {
  const scopes = strs(spec['scopes']);
  if (scopes.length === 0) return [];
  const errs: ErrorList = [];
  const hard = entries(spec['hard']).map(([k]) => k);
  const scopesPath = fldPath.child('scopes');
  for (const scope of scopes) {
    if (!isStandardResourceQuotaScope(scope)) errs.push(invalid(scopesPath, scopes, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !isResourceQuotaScopeValidForResource(scope, k)) {
        errs.push(invalid(scopesPath, scopes, 'unsupported scope applied to resource'));
      }
    }
  }
  for (const pair of conflictingScopes) if (pair.every((s) => scopes.includes(s))) errs.push(invalid(scopesPath, scopes, 'conflicting scopes'));
  return errs;
}

/** The internal ScopeSelector as upstream prints it (Go field names, no JSON tags). */
function scopeSelectorStruct(selector: Obj): Map<string, unknown> {
  const exprs = objs(selector['matchExpressions']).map(
    (e) => new Map<string, unknown>([['ScopeName', str(e['scopeName'])], ['Operator', str(e['operator'])], ['Values', Array.isArray(e['values']) ? strs(e['values']) : null]]),
  );
  return new Map<string, unknown>([['MatchExpressions', Array.isArray(selector['matchExpressions']) ? exprs : null]]);
}

const existsOnlyScopes = ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'];

function validateScopeSelector(spec: Obj, fldPath: Path): ErrorList {
  const selector = obj(spec['scopeSelector']);
  if (!selector) return [];
  const errs: ErrorList = [];
  const hard = entries(spec['hard']).map(([k]) => k);
  const path = fldPath.child('scopeSelector', 'matchExpressions');
  const scopeSet = new Set<string>();
  for (const req of objs(selector['matchExpressions'])) {
    const scope = str(req['scopeName']);
    const operator = str(req['operator']);
    const values = strs(req['values']);
    if (!isStandardResourceQuotaScope(scope)) errs.push(invalid(path.child('scopeName'), scope, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !isResourceQuotaScopeValidForResource(scope, k)) {
        errs.push(invalid(path, scopeSelectorStruct(selector), 'unsupported scope applied to resource'));
      }
    }
    if (existsOnlyScopes.includes(scope) && operator !== 'Exists') {
      errs.push(
        invalid(
          path.child('operator'),
          operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    switch (operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(path.child('values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length !== 0) errs.push(invalid(path.child('values'), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        break;
      default:
        errs.push(invalid(path.child('operator'), operator, 'not a valid selector operator'));
    }
    scopeSet.add(scope);
  }
  // Upstream shows spec.scopes (not the selector) as the bad value here.
  const scopes = Array.isArray(spec['scopes']) ? strs(spec['scopes']) : null;
  for (const pair of conflictingScopes) if (pair.every((s) => scopeSet.has(s))) errs.push(invalid(path, scopes, 'conflicting scopes'));
  return errs;
}

function validateResourceQuotaSpec(spec: Obj, fldPath: Path): ErrorList {
  return [...validateResourceList(spec['hard'], fldPath.child('hard')), ...validateResourceQuotaScopes(spec, fldPath), ...validateScopeSelector(spec, fldPath)];
}

function validateResourceQuotaStatus(status: Obj, fldPath: Path): ErrorList {
  return [...validateResourceList(status['hard'], fldPath.child('hard')), ...validateResourceList(status['used'], fldPath.child('used'))];
}

const specOf = (rq: KubeObject): Obj => obj(rq['spec']) ?? {};
const statusOf = (rq: KubeObject): Obj => obj(rq['status']) ?? {};

function validateResourceQuota(rq: KubeObject): ErrorList {
  return [
    ...validateObjectMeta(rq.metadata, true, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateResourceQuotaSpec(specOf(rq), Path.root('spec')),
    ...validateResourceQuotaStatus(statusOf(rq), Path.root('status')),
  ];
}

function validateResourceQuotaUpdate(rq: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(rq.metadata, old.metadata, Path.root('metadata'));
  errs.push(...validateResourceQuotaSpec(specOf(rq), Path.root('spec')));
  const newScopes = new Set(strs(specOf(rq)['scopes']));
  const oldScopes = new Set(strs(specOf(old)['scopes']));
  if (newScopes.size !== oldScopes.size || [...newScopes].some((s) => !oldScopes.has(s))) {
    errs.push(invalid(Path.root('spec', 'scopes'), Array.isArray(specOf(rq)['scopes']) ? strs(specOf(rq)['scopes']) : null, fieldImmutableErrorMsg));
  }
  return errs;
}

function validateResourceQuotaStatusUpdate(rq: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(rq.metadata, old.metadata, Path.root('metadata'));
  if (str(rq.metadata.resourceVersion).length === 0) errs.push(required(Path.root('resourceVersion'), ''));
  errs.push(...validateResourceQuotaStatus(statusOf(rq), Path.root('status')));
  return errs;
}

registerValidator('', 'ResourceQuota', { create: validateResourceQuota, update: validateResourceQuotaUpdate, updateStatus: validateResourceQuotaStatusUpdate });
