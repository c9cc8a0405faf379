/**
 * The metadata, label and selector checks the core rules build on: apimachinery's (../meta),
 * plus core's extra rule that unqualified finalizer names must be standard ones.
 */
import { invalid, Path, type ErrorList } from '../../../api/field';
import type { NameValidator } from '../../../api/names';
import type { ObjectMeta } from '../../../api/types';
import {
  fieldImmutableErrorMsg,
  validateAnnotations,
  validateFinalizerName,
  validateImmutableField,
  validateLabelName,
  validateLabels,
  validateLabelSelector as validateSelector,
  validateObjectMeta as validateGenericObjectMeta,
  validateObjectMetaUpdate as validateGenericObjectMetaUpdate,
  validateSetOperatorValues,
} from '../meta';
import { strs } from './json';
import { isStandardFinalizerName } from './resourcenames';

export { fieldImmutableErrorMsg, validateAnnotations, validateFinalizerName, validateImmutableField, validateLabelName, validateLabels, validateSetOperatorValues };

export interface LabelSelectorOptions {
  allowInvalidLabelValueInSelector: boolean;
}

export function validateLabelSelector(selector: unknown, opts: LabelSelectorOptions, fldPath: Path): ErrorList {
  return validateSelector(selector, { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector }, fldPath);
}

/** Whether a stored selector fails today's rules (so updates keep accepting its values). */
export function selectorHasErrors(selector: unknown): boolean {
  return validateLabelSelector(selector, { allowInvalidLabelValueInSelector: false }, Path.root('')).length > 0;
}

/** Unqualified finalizer names must be one of the standard ones. */
export function validateKubeFinalizerName(name: string, fldPath: Path): ErrorList {
  if (!name.includes('/') && !isStandardFinalizerName(name)) {
    return [invalid(fldPath, name, 'name is neither a standard finalizer name nor is it fully qualified')];
  }
  return [];
}

function validateKubeFinalizers(meta: ObjectMeta | undefined, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  strs(meta?.finalizers).forEach((f, i) => errs.push(...validateKubeFinalizerName(f, fldPath.child('finalizers').index(i))));
  return errs;
}

/** Core's ValidateObjectMeta. */
export function validateObjectMeta(meta: ObjectMeta | undefined, requiresNamespace: boolean, nameFn: NameValidator, fldPath: Path): ErrorList {
  return [...validateGenericObjectMeta(meta, requiresNamespace, nameFn, fldPath), ...validateKubeFinalizers(meta, fldPath)];
}

/** Core's ValidateObjectMetaUpdate. */
export function validateObjectMetaUpdate(newMeta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined, fldPath: Path): ErrorList {
  return [...validateGenericObjectMetaUpdate(newMeta, oldMeta, fldPath), ...validateKubeFinalizers(newMeta, fldPath)];
}
