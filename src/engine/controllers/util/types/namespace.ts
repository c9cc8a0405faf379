/** The core/v1 Namespace the namespace controller reads and writes (generated from the OpenAPI) and its finalizer. */
export type { Namespace, NamespaceCondition } from '../../../api/generated/core-v1';

/** The finalizer the namespace controller owns (spec.finalizers). */
export const FINALIZER_KUBERNETES = 'kubernetes';
