// The metadata and request-option rules every kind's validator builds on.
export { fieldImmutableErrorMsg, isNegativeErrorMsg, semanticEqual, validateImmutableField, validateNonnegativeField } from './generic';
export {
  labelSelectorHasInvalidLabelValue,
  validateFieldSelectorRequirement,
  validateLabelName,
  validateLabels,
  validateLabelSelector,
  validateLabelSelectorRequirement,
  validateSetOperatorValues,
  type LabelSelectorValidationOptions,
} from './labels';
export {
  totalAnnotationSizeLimitB,
  validateAnnotations,
  validateFinalizerName,
  validateFinalizers,
  validateNoNewFinalizers,
  validateObjectMeta,
  validateObjectMetaUpdate,
  validateOwnerReferences,
} from './objectmeta';
export { fieldManagerMaxLength, validateFieldManager, validateManagedFields } from './managedfields';
export { validateCondition, validateConditions } from './conditions';
export {
  validateCreateOptions,
  validateDeleteOptions,
  validateDryRun,
  validateFieldValidation,
  validatePatchOptions,
  validateUpdateOptions,
  type DeleteOptions,
  type PatchOptions,
  type WriteOptions,
} from './options';
