/**
 * What the user reads after a command: kubectl's own lines for the output channel (warnings as
 * kubectl prints them, then `deployment.apps/web created` or the error text) and a one-line
 * summary for the notification, with its severity.
 */
import { describeIdentity, type Identity } from './identity';

export interface ResultLine {
  ok: boolean;
  /** kubectl's line: `deployment.apps/web created`, or its error text (may span lines). */
  message: string;
  warnings?: readonly string[];
}

export type Severity = 'info' | 'warning' | 'error';

export interface Report {
  lines: string[];
  summary: string;
  severity: Severity;
}

/** How many result lines a notification lists before it counts them instead. */
const LISTED = 3;

function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

/** `created` / `configured (server dry run)` / ... : the word after the object's name. */
function actionOf(message: string): string {
  const m = /^\S+ (.+)$/.exec(message);
  return m ? m[1]! : message;
}

export function formatResults(results: readonly ResultLine[], empty: string): Report {
  if (results.length === 0) return { lines: [empty], summary: empty, severity: 'error' };
  const lines: string[] = [];
  for (const r of results) {
    for (const w of r.warnings ?? []) lines.push(`Warning: ${w}`);
    lines.push(r.message);
  }
  const failed = results.filter((r) => !r.ok);
  const warned = results.some((r) => (r.warnings ?? []).length > 0);
  if (failed.length > 0) {
    const first = oneLine(failed[0]!.message);
    const summary = results.length === 1 ? first : `${failed.length} of ${results.length} failed: ${first}`;
    return { lines, summary, severity: 'error' };
  }
  let summary: string;
  if (results.length <= LISTED) {
    summary = results.map((r) => r.message).join(', ');
  } else {
    const counts = new Map<string, number>();
    for (const r of results) counts.set(actionOf(r.message), (counts.get(actionOf(r.message)) ?? 0) + 1);
    summary = `${results.length} objects: ${[...counts].map(([action, n]) => `${n} ${action}`).join(', ')}`;
  }
  if (warned) summary += ' (with warnings: see the KubeSim output)';
  return { lines, summary, severity: warned ? 'warning' : 'info' };
}

/** The command line a user would have typed, with whose credentials it ran. */
export function commandHeader(command: string, user: Identity): string {
  return `$ ${command}    # as ${describeIdentity(user)}`;
}
