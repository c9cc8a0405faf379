/**
 * Indexed Jobs (pkg/controller/job/indexed_job_utils.go): each pod carries its completion index
 * (annotation and label batch.kubernetes.io/job-completion-index, hostname <job>-<index>, the
 * JOB_COMPLETION_INDEX variable in every container), the Job counts succeeded indexes rather than
 * pods, and keeps them in status.completedIndexes as ordered intervals ("0-2,5").
 */
import type { Job, Pod, TemplatePod } from '../util/types/job';

export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';
/** names.MaxGeneratedNameLength: a generateName is cut so that the random suffix fits 63 characters. */
const MAX_GENERATED_NAME_LENGTH = 58;

export const isIndexedJob = (job: Job): boolean => job.spec.completionMode === 'Indexed';

export interface Interval {
  first: number;
  last: number;
}

/** The pod's completion index, or -1 when it has none (or an invalid one). */
export function completionIndex(pod: Pod): number {
  const v = pod.metadata.annotations?.[COMPLETION_INDEX_ANNOTATION];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return -1;
  const n = Number(v);
  return n < 0 || !Number.isSafeInteger(n) ? -1 : n;
}

/** withOrderedIndexes: the intervals with the new (increasing) indexes merged in. */
export function withIndexes(intervals: readonly Interval[], indexes: readonly number[]): Interval[] {
  const out: Interval[] = [];
  const add = (iv: Interval): void => {
    const last = out[out.length - 1];
    if (!last || iv.first > last.last + 1) out.push({ ...iv });
    else if (last.last < iv.last) last.last = iv.last;
  };
  let i = 0;
  let j = 0;
  while (i < intervals.length && j < indexes.length) {
    if (intervals[i]!.first < indexes[j]!) add(intervals[i++]!);
    else add({ first: indexes[j]!, last: indexes[j++]! });
  }
  while (i < intervals.length) add(intervals[i++]!);
  while (j < indexes.length) add({ first: indexes[j]!, last: indexes[j++]! });
  return out;
}

export const total = (intervals: readonly Interval[]): number => intervals.reduce((n, iv) => n + iv.last - iv.first + 1, 0);

export function has(intervals: readonly Interval[], ix: number): boolean {
  return intervals.some((iv) => iv.first <= ix && ix <= iv.last);
}

/** "0-2,5": two adjacent indexes are written "3,4". */
export function formatIntervals(intervals: readonly Interval[]): string {
  return intervals.map((iv) => (iv.last === iv.first ? `${iv.first}` : `${iv.first}${iv.last === iv.first + 1 ? ',' : '-'}${iv.last}`)).join(',');
}

/** succeededIndexesFromString: the stored intervals, those at or past `completions` dropped. */
export function parseIntervals(text: string | undefined, completions: number): Interval[] {
  const out: Interval[] = [];
  if (!text) return out;
  for (const part of text.split(',')) {
    const [a, b] = part.split('-');
    const first = Number(a);
    if (!/^\d+$/.test(a ?? '')) continue;
    if (first >= completions) break;
    let last = first;
    if (b !== undefined) {
      if (!/^\d+$/.test(b)) continue;
      last = Math.min(Number(b), completions - 1);
    }
    const prev = out[out.length - 1];
    if (prev && prev.last === first - 1) prev.last = last;
    else out.push({ first, last });
  }
  return out;
}

/** firstPendingIndexes: the `count` lowest indexes below `completions` neither succeeded nor running. */
export function firstPendingIndexes(activePods: readonly Pod[], succeeded: readonly Interval[], count: number, completions: number): number[] {
  if (count === 0) return [];
  const active = [...new Set(activePods.map(completionIndex).filter((ix) => ix >= 0))].sort((a, b) => a - b);
  const taken = withIndexes(succeeded, active);
  const out: number[] = [];
  let candidate = 0;
  for (const iv of taken) {
    for (; candidate < completions && out.length < count && candidate < iv.first; candidate++) out.push(candidate);
    if (candidate < iv.last + 1) candidate = iv.last + 1;
  }
  for (; candidate < completions && out.length < count; candidate++) out.push(candidate);
  return out;
}

/**
 * appendDuplicatedIndexPodsForRemoval: active pods without a valid index, past the completions,
 * or repeating an index (all but one of each) are to go.
 */
export function duplicatedIndexPods(activePods: readonly Pod[], completions: number, ready: (p: Pod) => boolean): Pod[] {
  const byIndex = new Map<number, Pod[]>();
  const remove: Pod[] = [];
  for (const p of activePods) {
    const ix = completionIndex(p);
    if (ix < 0 || ix >= completions) remove.push(p);
    else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
  }
  for (const pods of byIndex.values()) {
    if (pods.length < 2) continue;
    // controller.ActivePods order: the pod kept is the most advanced (ready, then oldest).
    const sorted = [...pods].sort((a, b) => Number(ready(a)) - Number(ready(b)) || (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''));
    remove.push(...sorted.slice(0, -1));
  }
  return remove;
}

/** The pod of index `ix`: the index on it, its hostname and generated name, and the variable in every container. */
export function withCompletionIndex(pod: TemplatePod, job: Job, ix: number): TemplatePod {
  const name = job.metadata.name ?? '';
  const suffix = `-${ix}-`;
  let generateName = `${name}${suffix}`;
  if (generateName.length > MAX_GENERATED_NAME_LENGTH) generateName = generateName.slice(0, MAX_GENERATED_NAME_LENGTH - suffix.length) + suffix;
  pod.metadata.generateName = generateName;
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [COMPLETION_INDEX_ANNOTATION]: String(ix) };
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [COMPLETION_INDEX_ANNOTATION]: String(ix) };
  const spec = pod.spec;
  spec.hostname = `${name}-${ix}`;
  for (const list of [spec.initContainers, spec.containers]) {
    for (const c of Array.isArray(list) ? list : []) {
      const env = Array.isArray(c.env) ? c.env : [];
      if (env.some((e) => e.name === COMPLETION_INDEX_ENV)) continue;
      c.env = [...env, { name: COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.labels['${COMPLETION_INDEX_ANNOTATION}']` } } }];
    }
  }
  return pod;
}
