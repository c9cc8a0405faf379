/**
 * Hand-written field rules per kind (the TypeScript counterpart of pkg/apis/<group>/validation).
 * Each kind registers a KindValidator; the pipeline runs it after schema validation, on the
 * defaulted v1 object. Rules are pure functions of the object (and the old object on update).
 */
import type { ErrorList } from '../../api/field';
import type { KubeObject } from '../../api/types';
import { KindRegistry } from '../kind-registry';

export interface ValidationOptions {
  /** The namespace the request targets, for kinds whose rules depend on it. */
  namespace?: string;
}

export interface KindValidator {
  create(obj: KubeObject, options: ValidationOptions): ErrorList;
  /** Update rules include the create rules of the new object plus immutability checks. */
  update(obj: KubeObject, old: KubeObject, options: ValidationOptions): ErrorList;
  /** For the status subresource; defaults to object-meta update rules only. */
  updateStatus?(obj: KubeObject, old: KubeObject, options: ValidationOptions): ErrorList;
}

const validators = new KindRegistry<KindValidator>('validator');

export function registerValidator(group: string, kind: string, validator: KindValidator): void {
  validators.register(group, kind, validator);
}

export function validatorFor(group: string, kind: string): KindValidator | undefined {
  return validators.get(group, kind);
}
