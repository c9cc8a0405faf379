/** The core/v1 Namespace as the namespace controller reads and writes it. */
import type { KubeObject } from '../../../api/types';

export interface NamespaceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

/** The finalizer the namespace controller owns (spec.finalizers). */
export const FINALIZER_KUBERNETES = 'kubernetes';
