/**
 * The validation stage: the kind's field rules (pkg/apis/<group>/validation) and the generic
 * ObjectMeta rules rest.BeforeCreate/BeforeUpdate add, ending in kube-apiserver's 422 Invalid.
 */
import { Path, type ErrorList } from '../api/field';
import { validatePathSegmentName } from '../api/names';
import { invalidError } from '../api/status';
import type { KubeObject } from '../api/types';
import type { RequestContext, Target } from './context';
import { groupKind } from './resources';
import { validatorFor } from './validation';
import { validateObjectMeta, validateObjectMetaUpdate } from './validation/meta';

const META = Path.root('metadata');

const validatorOf = (t: Target) => t.strategy.validator ?? validatorFor(t.info.group, t.info.kind);

export function createErrors(t: Target, obj: KubeObject): ErrorList {
  const v = validatorOf(t);
  const errs = v ? v.create(obj, { namespace: t.namespace }) : [];
  if (errs.length > 0) return errs;
  return validateObjectMeta(obj.metadata, t.info.namespaced, validatePathSegmentName, META);
}

/** validateCommonFields: what every update is checked against before the kind's rules. */
function commonUpdateErrors(t: Target, obj: KubeObject, old: KubeObject): ErrorList {
  return [
    ...validateObjectMeta(obj.metadata, t.info.namespaced, validatePathSegmentName, META),
    ...validateObjectMetaUpdate(obj.metadata, old.metadata, META),
  ];
}

export function updateErrors(t: Target, obj: KubeObject, old: KubeObject): ErrorList {
  const v = validatorOf(t);
  return [...commonUpdateErrors(t, obj, old), ...(v ? v.update(obj, old, { namespace: t.namespace }) : [])];
}

export function statusUpdateErrors(t: Target, obj: KubeObject, old: KubeObject): ErrorList {
  const v = validatorOf(t);
  return [...commonUpdateErrors(t, obj, old), ...(v?.updateStatus ? v.updateStatus(obj, old, { namespace: t.namespace }) : [])];
}

/** Records the verdict and throws the 422 when there are errors. */
export function enforce(ctx: RequestContext, t: Target, obj: KubeObject, errs: ErrorList): void {
  if (errs.length === 0) {
    ctx.stage({ stage: 'validation', verdict: 'passed', rule: `${t.info.kind} field rules` });
    return;
  }
  const err = invalidError(groupKind(t.info), obj.metadata.name ?? '', errs);
  ctx.fieldErrors = errs;
  ctx.stage({ stage: 'validation', verdict: 'rejected', rule: errs[0]!.field, detail: err.message });
  throw err;
}
