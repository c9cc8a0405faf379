/**
 * JSON as kube-apiserver writes it (Go's encoding/json Encoder): HTML-sensitive characters and
 * the line separators escaped, a newline at the end. Status objects keep metav1.Status's field
 * order.
 */
import type { Status } from '../engine/api/status';
import { table } from '../engine/api/own';

const ESCAPES = table<string>({ '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' });

/** The value as Go encodes it; characters needing escapes only occur inside strings. */
export function encodeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]!) + '\n';
}

export function statusBody(s: Status): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: s.status };
  if (s.message) out.message = s.message;
  if (s.reason) out.reason = s.reason;
  if (s.details && Object.keys(s.details).length > 0) out.details = s.details;
  if (s.code) out.code = s.code;
  return out;
}
