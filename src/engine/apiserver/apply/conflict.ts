/**
 * Apply conflicts and the 409 kube-apiserver answers with (managedfields NewConflictError):
 * one cause per conflicting field, and a message that names the field for a single conflict
 * or groups the fields by manager (managers sorted) for several.
 */
import { applyConflictError, type StatusError } from '../../api/status';
import type { Path } from './fieldpath/element';
import { compareStrings, pathString } from './fieldpath/element';
import type { FieldSet } from './fieldpath/set';
import { printManager } from './managed';

export interface Conflict {
  /** The manager identifier. */
  manager: string;
  path: Path;
}

/** Thrown by the merge when a forced apply would be needed. */
export class ConflictsError extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super('apply conflicts');
    this.name = 'ConflictsError';
  }
}

/** ConflictsFromManagers, managers in identifier order (upstream's map order is random). */
export function conflictsFromManagers(sets: Map<string, FieldSet>): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...sets.keys()].sort(compareStrings)) {
    for (const path of sets.get(manager)!.paths()) out.push({ manager, path });
  }
  return out;
}

export function conflictError(conflicts: readonly Conflict[]): StatusError {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  return applyConflictError(causes, conflictMessage(conflicts));
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0]!;
    return `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${pathString(c.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.path]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort(compareStrings)) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager)!) lines.push(`- ${pathString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}
