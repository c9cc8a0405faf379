/**
 * Quiet by default, everything on request: what the Revisions, Requests, Controllers and Flow
 * views leave out unless asked (heartbeats, Events, reads, and, when asked, everything outside
 * the followed apply's causal closure). What each of those is comes from one place,
 * src/engine/timeline/noise.ts; this only says which of them a view hides and counts why.
 */
import { isEvent, isHeartbeat, isRead, type Lookup } from '../../src/protocol/timeline';
import type { PanelRecord } from '../../src/protocol/panel';

export interface Quiet {
  /** Hide Lease renewals, the kubelets' Node status updates and the checks they trigger. */
  heartbeats: boolean;
  /** Hide the writes of Events (and their records). */
  events: boolean;
  /** Hide get, list, watch and discovery requests (the panel's own reads among them). */
  reads: boolean;
  /** Show only the causal closure of the followed apply. */
  applyOnly: boolean;
}

export const QUIET_DEFAULTS: Readonly<Quiet> = { heartbeats: true, events: true, reads: true, applyOnly: false };

export type HiddenReason = 'heartbeat' | 'event' | 'read' | 'other apply';

/**
 * Why a view hides a record, or undefined when it shows it. `closure` is the followed apply's
 * causal closure (record ids) while "this apply only" is on.
 */
export function hiddenReason(r: PanelRecord, quiet: Quiet, lookup: Lookup, closure: ReadonlySet<number> | undefined): HiddenReason | undefined {
  if (quiet.applyOnly && closure && !closure.has(r.id)) return 'other apply';
  if (quiet.heartbeats && isHeartbeat(r, lookup)) return 'heartbeat';
  if (quiet.events && isEvent(r)) return 'event';
  if (quiet.reads && isRead(r)) return 'read';
  return undefined;
}

export function restoreQuiet(raw: unknown): Quiet {
  const q = { ...QUIET_DEFAULTS };
  if (typeof raw !== 'object' || raw === null) return q;
  for (const k of Object.keys(QUIET_DEFAULTS) as (keyof Quiet)[]) {
    const v = (raw as Record<string, unknown>)[k];
    if (typeof v === 'boolean') q[k] = v;
  }
  return q;
}

const REASON_WORDS: Readonly<Record<HiddenReason, [string, string]>> = {
  heartbeat: ['heartbeat', 'heartbeats'],
  event: ['Event write', 'Event writes'],
  read: ['read', 'reads'],
  'other apply': ['record outside this apply', 'records outside this apply'],
};

/** "1,204 heartbeats, 88 reads hidden" (the counts of what a view left out). */
export function hiddenText(counts: ReadonlyMap<HiddenReason, number>): string {
  const parts: string[] = [];
  for (const [reason, [one, many]] of Object.entries(REASON_WORDS) as [HiddenReason, [string, string]][]) {
    const n = counts.get(reason) ?? 0;
    if (n > 0) parts.push(`${n.toLocaleString('en-US')} ${n === 1 ? one : many}`);
  }
  return parts.length ? `${parts.join(', ')} hidden` : '';
}
