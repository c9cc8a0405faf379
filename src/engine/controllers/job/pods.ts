/**
 * The Job's view of its pods: which are active, ready, terminating, succeeded or failed (a pod
 * being deleted counts as failed unless it succeeded), when each finished, and the pod the Job
 * creates from its template (with the job-tracking finalizer and a controller reference).
 */
import type { JsonObject, OwnerReference } from '../../api/types';
import type { PodSpec } from '../../api/generated/core-v1';
import { JOB_TRACKING_FINALIZER, type Job, type Pod, type TemplatePod } from '../util/types/job';

const terminal = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

export const isActive = (p: Pod): boolean => !terminal(p) && !p.metadata.deletionTimestamp;
export const isTerminating = (p: Pod): boolean => !terminal(p) && p.metadata.deletionTimestamp !== undefined;
export const isReady = (p: Pod): boolean => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
export const hasTrackingFinalizer = (p: Pod): boolean => (p.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);

/** isPodFailed: Failed, or (with podReplacementPolicy TerminatingOrFailed) being deleted before it succeeded. */
export function isPodFailed(p: Pod, job: Job): boolean {
  if (p.status?.phase === 'Failed') return true;
  if (job.spec.podReplacementPolicy === 'Failed') return false;
  return p.metadata.deletionTimestamp !== undefined && p.status?.phase !== 'Succeeded';
}

/** getFinishedTime: when the last container terminated, else when deletion started, else now. */
export function finishedTime(p: Pod, now: number): number {
  let latest: number | undefined;
  for (const s of [...(p.status?.containerStatuses ?? []), ...(p.status?.initContainerStatuses ?? [])]) {
    const t = s.state?.terminated?.finishedAt ? Date.parse(s.state.terminated.finishedAt) : undefined;
    if (t !== undefined && (latest === undefined || t > latest)) latest = t;
  }
  if (latest !== undefined) return latest;
  return p.metadata.deletionTimestamp ? Date.parse(p.metadata.deletionTimestamp) : now;
}

export function jobControllerRef(job: Job): OwnerReference {
  return { apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name ?? '', uid: job.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** GetPodFromTemplate: the pod a Job's template makes (its spec always present). */
export function podFromTemplate(job: Job): TemplatePod {
  const template = job.spec.template ?? {};
  const meta = template.metadata ?? {};
  const metadata: Pod['metadata'] = { generateName: `${job.metadata.name ?? ''}-`, namespace: job.metadata.namespace };
  if (meta.labels) metadata.labels = { ...meta.labels };
  if (meta.annotations) metadata.annotations = { ...meta.annotations };
  metadata.ownerReferences = [jobControllerRef(job)];
  metadata.finalizers = [...(meta.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER), JOB_TRACKING_FINALIZER];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(template.spec ?? ({} as PodSpec)) };
}

/** A strategic merge patch that drops the tracking finalizer (undefined when the pod has none). */
export function removeTrackingFinalizerPatch(p: Pod): JsonObject | undefined {
  if (!hasTrackingFinalizer(p)) return undefined;
  return { metadata: { '$deleteFromPrimitiveList/finalizers': [JOB_TRACKING_FINALIZER] } };
}

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, container restarts count against the backoff limit. */
export function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.spec.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of [...(p.status.initContainerStatuses ?? []), ...(p.status.containerStatuses ?? [])]) restarts += s.restartCount ?? 0;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}
