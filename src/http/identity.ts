/**
 * Who a request says it is: its bearer token and its Impersonate-* headers, handed to the
 * engine's authentication unchanged. Every request carries a token: one without gets the empty
 * token, which no user holds, so the API server answers 401 Unauthorized (kube-apiserver with
 * --anonymous-auth=false) and the attempt shows in the trace.
 */
import type { IncomingMessage } from 'node:http';
import type { Impersonation } from '../engine/apiserver/request';
import { own, setOwn } from '../engine/api/own';

export function bearerToken(req: IncomingMessage): string {
  const header = req.headers.authorization;
  if (!header) return '';
  const parts = header.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return '';
  return parts[1] ?? '';
}

const EXTRA_PREFIX = 'impersonate-extra-';

/** The Impersonate-User, -Group, -Uid and -Extra-<key> headers, if any. */
export function impersonation(req: IncomingMessage): Impersonation | undefined {
  const headers = req.headersDistinct;
  const user = headers['impersonate-user']?.[0];
  const groups = headers['impersonate-group'] ?? [];
  const uid = headers['impersonate-uid']?.[0];
  const extra: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(headers)) {
    if (!name.startsWith(EXTRA_PREFIX) || !values) continue;
    let key = name.slice(EXTRA_PREFIX.length);
    try {
      key = decodeURIComponent(key);
    } catch {
      // kube-apiserver keeps a key it cannot unescape as sent.
    }
    const lower = key.toLowerCase();
    setOwn(extra, lower, [...(own(extra, lower) ?? []), ...values]);
  }
  if (user === undefined && groups.length === 0 && uid === undefined && Object.keys(extra).length === 0) return undefined;
  const imp: Impersonation = { user: user ?? '' };
  if (groups.length > 0) imp.groups = [...groups];
  if (uid !== undefined) imp.uid = uid;
  if (Object.keys(extra).length > 0) imp.extra = extra;
  return imp;
}
