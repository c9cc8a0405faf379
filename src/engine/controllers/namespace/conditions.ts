/**
 * The namespace deletion conditions (pkg/controller/namespace/deletion status_condition_utils):
 * each sync of a terminating namespace reports, for five condition types, either a failure
 * (status True with what went wrong) or the "ok" variant (status False), and rewrites them
 * when any changed. Discovery here is the API server's own registry and cannot fail, so the
 * discovery and group-version conditions always report success.
 */
import type { NamespaceCondition } from '../util/types/namespace';

export const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

export type NamespaceConditionType = (typeof CONDITION_TYPES)[number];

const OK: Record<NamespaceConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
};

/** What one pass over the namespace's content found. */
export interface ContentReport {
  /** One message per resource whose deletion failed. */
  deleteErrors: string[];
  /** Instances left per resource, "pods." or "deployments.apps" (resource.group). */
  remainingByResource: Map<string, number>;
  /** Instances left per finalizer they carry. */
  remainingByFinalizer: Map<string, number>;
}

/** The failure conditions the report calls for; types not listed get their ok variant. */
export function failureConditions(report: ContentReport, now: string): NamespaceCondition[] {
  const out: NamespaceCondition[] = [];
  const remaining = [...report.remainingByResource].filter(([, n]) => n > 0).map(([r, n]) => `${r} has ${n} resource instances`).sort();
  if (report.remainingByResource.size > 0) {
    out.push({ type: 'NamespaceContentRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${remaining.join(', ')}` });
  }
  const byFinalizer = [...report.remainingByFinalizer].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
  if (report.remainingByFinalizer.size > 0) {
    out.push({
      type: 'NamespaceFinalizersRemaining',
      status: 'True',
      lastTransitionTime: now,
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${byFinalizer.join(', ')}`,
    });
  }
  if (report.deleteErrors.length > 0) {
    const msgs = [...report.deleteErrors].sort();
    out.push({
      type: 'NamespaceDeletionContentFailure',
      status: 'True',
      lastTransitionTime: now,
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
    });
  }
  return out;
}

/**
 * The namespace's conditions with the new ones merged in (a changed status moves
 * lastTransitionTime), and whether anything changed.
 */
export function updateConditions(current: readonly NamespaceCondition[], failures: readonly NamespaceCondition[], now: string): { conditions: NamespaceCondition[]; changed: boolean } {
  const conditions = current.map((c) => ({ ...c }));
  let changed = false;
  for (const type of CONDITION_TYPES) {
    const next = failures.find((c) => c.type === type) ?? { type, status: 'False', lastTransitionTime: now, ...OK[type] };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push({ ...next });
      changed = true;
    } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
      if (old.status !== next.status) old.lastTransitionTime = now;
      old.status = next.status;
      old.reason = next.reason;
      old.message = next.message;
      changed = true;
    }
  }
  return { conditions, changed };
}
