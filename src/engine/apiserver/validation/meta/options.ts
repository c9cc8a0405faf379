/**
 * Request option rules (metav1 validation, release-1.35): ?dryRun, ?fieldManager,
 * ?fieldValidation, ?force and DeleteOptions, checked before a write is attempted.
 */
import { forbidden, invalid, notSupported, required, type ErrorList } from '../../../api/field';
import { Path } from '../../../api/field';
import { validateFieldManager } from './managedfields';
import type * as meta from '../../../api/generated/meta-v1';

export interface WriteOptions {
  fieldManager?: string;
  dryRun?: string[] | null;
  fieldValidation?: string;
}

export interface PatchOptions extends WriteOptions {
  force?: boolean | null;
}

/** A metav1.DeleteOptions body as decoded, before validation: any field may be null. */
export type DeleteOptions = { [K in Exclude<keyof meta.DeleteOptions, 'apiVersion' | 'kind' | 'preconditions'>]?: meta.DeleteOptions[K] | null } & { preconditions?: object | null };

const set = (v: unknown): boolean => v !== undefined && v !== null;

/** ValidateDryRun: "All" is the only value. */
export function validateDryRun(fldPath: Path, dryRun: string[] | null | undefined): ErrorList {
  const values = dryRun ?? [];
  return values.every((v) => v === 'All') ? [] : [notSupported(fldPath, dryRun ?? null, ['All'])];
}

const fieldValidationValues = ['', 'Ignore', 'Strict', 'Warn'];

export function validateFieldValidation(fldPath: Path, fieldValidation: string): ErrorList {
  return fieldValidationValues.includes(fieldValidation) ? [] : [notSupported(fldPath, fieldValidation, fieldValidationValues)];
}

function validateWriteOptions(options: WriteOptions): ErrorList {
  return [
    ...validateFieldManager(options.fieldManager ?? '', Path.root('fieldManager')),
    ...validateDryRun(Path.root('dryRun'), options.dryRun),
    ...validateFieldValidation(Path.root('fieldValidation'), options.fieldValidation ?? ''),
  ];
}

export const validateCreateOptions = validateWriteOptions;
export const validateUpdateOptions = validateWriteOptions;

/** ValidatePatchOptions: apply patches need a field manager; only they may force. */
export function validatePatchOptions(options: PatchOptions, patchType: string): ErrorList {
  const errs: ErrorList = [];
  const isApply = patchType === 'application/apply-patch+yaml' || patchType === 'application/apply-patch+cbor';
  if (isApply) {
    if (!options.fieldManager) errs.push(required(Path.root('fieldManager'), 'is required for apply patch'));
  } else if (set(options.force)) {
    errs.push(forbidden(Path.root('force'), 'may not be specified for non-apply patch'));
  }
  return [...errs, ...validateWriteOptions(options)];
}

/** ValidateDeleteOptions. */
export function validateDeleteOptions(options: DeleteOptions): ErrorList {
  const errs: ErrorList = [];
  const policy = Path.root('propagationPolicy');
  if (set(options.orphanDependents) && set(options.propagationPolicy)) {
    errs.push(invalid(policy, options.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  const p = options.propagationPolicy;
  if (typeof p === 'string' && p !== 'Foreground' && p !== 'Background' && p !== 'Orphan') {
    errs.push(notSupported(policy, p, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  errs.push(...validateDryRun(Path.root('dryRun'), options.dryRun));
  if (options.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    const f = Path.root('ignoreStoreReadErrorWithClusterBreakingPotential');
    if ((options.dryRun ?? []).length > 0) errs.push(invalid(f, true, 'cannot be set together with .dryRun'));
    if (set(options.propagationPolicy)) errs.push(invalid(f, true, 'cannot be set together with .propagationPolicy'));
    if (set(options.orphanDependents)) errs.push(invalid(f, true, 'cannot be set together with .orphanDependents'));
    if (set(options.gracePeriodSeconds)) errs.push(invalid(f, true, 'cannot be set together with .gracePeriodSeconds'));
    if (set(options.preconditions)) errs.push(invalid(f, true, 'cannot be set together with .preconditions'));
  }
  return errs;
}
