/**
 * The apps/v1 DaemonSet as the DaemonSet controller reads and writes it: the generated type, with
 * the spec every stored DaemonSet has (validation requires selector and template).
 */
import type { DaemonSet as ApiDaemonSet, DaemonSetSpec } from '../../api/generated/apps-v1';

export type { DaemonSetStatus } from '../../api/generated/apps-v1';

export type DaemonSet = ApiDaemonSet & { spec: DaemonSetSpec };

export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
/** The deprecated label DaemonSet pods still carry. */
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
