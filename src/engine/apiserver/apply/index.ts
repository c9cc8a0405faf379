/**
 * Server-side apply and managedFields tracking, as kube-apiserver 1.35 does them.
 */
export { applyPatch, updateManagedFields } from './fieldmanager';
export { keepUnchangedTimestamps } from './timestamps';
export type { ApplyRequest, ApplyResult, FieldManagerScope, UpdateRequest } from './fieldmanager';
export { managerOrUserAgent, checkPatchedIdentity } from './request';
export { FieldSet } from './fieldpath/set';
export { field, keyElement, valueElement, pathString } from './fieldpath/element';
export type { Path, PathElement } from './fieldpath/element';
export { toFieldsV1, fromFieldsV1 } from './fieldpath/fieldsv1';
export { conflictError } from './conflict';
export { LAST_APPLIED_ANNOTATION } from './lastapplied';
export { MAX_UPDATE_MANAGERS } from './capmanagers';
