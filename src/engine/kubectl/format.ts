/**
 * Errors printed the way kubectl prints them (k8s.io/kubectl/pkg/cmd/util: CheckErr,
 * StandardErrorMessage, MultilineError, AddSourceToErr), so what kubesim shows reads exactly like
 * kubectl's stderr:
 *   Error from server (NotFound): deployments.apps "web" not found
 *   The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
 *   The Deployment "web" is invalid: \n* spec.replicas: ...\n* spec.selector: ...
 * Each function returns the text kubectl writes, ending in a newline.
 */
import { goQuote } from '../api/gofmt';
import type { Status } from '../api/status';

/** AddSourceToErr: `error when creating "file.yaml": <message>` (verbs: creating, patching, serverside-apply, replacing, deleting). */
export function withSource(status: Status, verb: string, source: string): Status {
  if (!source) return status;
  return { ...status, message: `error when ${verb} ${goQuote(source)}: ${status.message ?? ''}` };
}

/** StandardErrorMessage: the one-line form of a Status error. */
export function standardErrorMessage(status: Status): string {
  const message = status.message ?? '';
  if (status.reason === 'Unauthorized') return `error: You must be logged in to the server (${message})`;
  if (status.reason) return `Error from server (${status.reason}): ${message}`;
  return `Error from server: ${message}`;
}

/** statusCausesToAggrError: "field: message" per cause, duplicates dropped. */
function causeMessages(status: Status): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of status.details?.causes ?? []) {
    const msg = `${c.field ?? ''}: ${c.message ?? ''}`;
    if (seen.has(msg)) continue;
    seen.add(msg);
    out.push(msg);
  }
  return out;
}

/** MultilineError: one error on the prefix's line, several as "* " lines below it. */
function multiline(prefix: string, errs: readonly string[]): string {
  if (errs.length === 1) return `${prefix}${errs[0]}\n`;
  return `${prefix}\n${errs.map((e) => `* ${e}\n`).join('')}`;
}

/** CheckErr for one error. */
export function formatKubectlError(status: Status): string {
  if (status.reason !== 'Invalid') return ensureNewline(standardErrorMessage(status));
  const details = status.details;
  let s = 'The request is invalid';
  if (!details) return ensureNewline(status.message ? `${s}: ${status.message}` : s);
  const causes = causeMessages(status);
  if (details.kind || details.name) s = `The ${details.kind ?? ''} ${goQuote(details.name ?? '')} is invalid`;
  else if (status.message && causes.length === 0) s += `: ${status.message}`;
  if (causes.length === 0) return ensureNewline(s);
  return multiline(`${s}: `, causes);
}

/** CheckErr for what a multi-object command (apply -f, create -f) collected: one error alone, else one line each. */
export function formatKubectlErrors(statuses: readonly Status[]): string {
  if (statuses.length === 1) return formatKubectlError(statuses[0]!);
  return statuses.map((s) => `${standardErrorMessage(s)}\n`).join('');
}

function ensureNewline(s: string): string {
  return s.endsWith('\n') ? s : `${s}\n`;
}
