/**
 * List continuation tokens in kube-apiserver's format: base64url (no padding) of
 * {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the prefix>\u0000"}.
 */
import { goJson } from '../../api/gofmt';
import { badRequestError, type StatusError } from '../../api/status';

export function encodeContinue(nextKey: string, keyPrefix: string, revision: number): string {
  if (!nextKey.startsWith(keyPrefix)) throw new Error('unable to encode next field: the key and key prefix do not match');
  const json = goJson(
    new Map<string, unknown>([
      ['v', 'meta.k8s.io/v1'],
      ['rv', revision],
      ['start', nextKey.slice(keyPrefix.length)],
    ]),
  );
  return base64UrlEncode(json);
}

export interface DecodedContinue {
  /** The full key to resume from. */
  fromKey: string;
  /** The revision of the first page; -1 asks for the latest. */
  revision: number;
}

export function decodeContinue(token: string, keyPrefix: string): DecodedContinue | StatusError {
  const invalid = (detail: string): StatusError => badRequestError(`invalid continue token: ${detail}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(base64UrlDecode(token));
  } catch (err) {
    return invalid(`continue key is not valid: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof parsed !== 'object' || parsed === null) return invalid('continue key is not valid');
  const c = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (c.v !== 'meta.k8s.io/v1') return invalid(`continue key is not valid: server does not recognize this encoded version ${String(c.v ?? '')}`);
  const rv = typeof c.rv === 'number' ? c.rv : 0;
  if (rv === 0) return invalid('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  const start = typeof c.start === 'string' ? c.start : '';
  if (start === '') return invalid('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  // A start key that climbs out of the prefix (path traversal) is refused, as path.Clean would.
  const key = start.startsWith('/') ? start : '/' + start;
  if (cleanPath(key) !== key) return invalid(`continue key is not valid: ${start}`);
  return { fromKey: keyPrefix + key.slice(1), revision: rv };
}

function cleanPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return '/' + out.join('/');
}

function base64UrlEncode(text: string): string {
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function base64UrlDecode(token: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) throw new Error('illegal base64 data');
  const binary = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
