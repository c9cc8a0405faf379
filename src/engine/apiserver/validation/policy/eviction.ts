/**
 * Eviction (the pods/eviction subresource). The Eviction itself has no field rules upstream;
 * its deleteOptions go through metav1's ValidateDeleteOptions when the pod is deleted.
 */
import type { ErrorList } from '../../../api/field';
import type { KubeObject } from '../../../api/types';
import { obj } from '../core/json';
import { validateDeleteOptions, type DeleteOptions } from '../meta';
import { registerValidator } from '../registry';

const validateEviction = (eviction: KubeObject): ErrorList => validateDeleteOptions((obj(eviction['deleteOptions']) ?? {}) as DeleteOptions);

registerValidator('policy', 'Eviction', { create: validateEviction, update: validateEviction });
