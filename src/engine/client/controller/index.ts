export { Controller, requeueAfter, type ControllerOptions, type ReconcileContext, type SyncFunction, type SyncResult } from './controller';
export { CONCURRENT_SYNCS } from './concurrency';
export { RevisionCauses, revisionCauses } from './revision-causes';
