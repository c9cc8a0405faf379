/** Kubernetes' url library (k8s.io/apiserver/pkg/cel/library/urls.go), on Go's url.ParseRequestURI rules. */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from '../values';

export class CelURL {
  constructor(
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly opaque: string,
  ) {}
  toString(): string {
    return `${this.scheme}://${this.host}${this.path}${this.rawQuery ? '?' + this.rawQuery : ''}`;
  }
}

/** Go's url.ParseRequestURI: an absolute URI or an absolute path, no fragment. */
function parseRequestURI(raw: string): CelURL | string {
  const err = (msg: string): string => `URL parse error during conversion from string: parse "${raw}": ${msg}`;
  if (raw === '') return err('empty url');
  if (/[\x00-\x1f\x7f]/.test(raw)) return err('net/url: invalid control character in URL');
  let rest = raw;
  let scheme = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (/^[^/]*:/.test(rest) && !rest.startsWith('/')) return err('missing protocol scheme');
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!scheme && !rest.startsWith('/')) return err('invalid URI for request');
  let host = '';
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    const at = authority.lastIndexOf('@');
    host = at >= 0 ? authority.slice(at + 1) : authority;
    if (/[^a-zA-Z0-9.\-_~!$&'()*+,;=:[\]%]/.test(host)) return err(`invalid character "${/[^a-zA-Z0-9.\-_~!$&'()*+,;=:[\]%]/.exec(host)![0]}" in host name`);
  } else if (scheme && !rest.startsWith('/')) {
    return new CelURL(scheme, '', '', rawQuery, rest);
  }
  return new CelURL(scheme, host, rest, rawQuery, '');
}

function url(s: string): CelURL {
  const u = parseRequestURI(s);
  if (typeof u === 'string') throw celError(u);
  return u;
}

function hostname(u: CelURL): string {
  const h = u.host;
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
  const c = h.lastIndexOf(':');
  return c >= 0 && /^\d*$/.test(h.slice(c + 1)) ? h.slice(0, c) : h;
}

function port(u: CelURL): string {
  const h = u.host;
  const close = h.indexOf(']');
  const c = h.lastIndexOf(':');
  if (c < 0 || c < close) return '';
  const p = h.slice(c + 1);
  return /^\d*$/.test(p) ? p : '';
}

function query(u: CelURL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split(/[&]/)) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const dec = (s: string): string => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    const k = dec(eq < 0 ? pair : pair.slice(0, eq));
    const v = dec(eq < 0 ? '' : pair.slice(eq + 1));
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

export function registerURLs(env: Environment): void {
  env
    .registerType('kubernetes.URL', CelURL)
    .registerFunction('url(string): kubernetes.URL', url)
    .registerFunction('isURL(string): bool', (s: string) => typeof parseRequestURI(s) !== 'string')
    .registerFunction('kubernetes.URL.getScheme(): string', (u: CelURL) => u.scheme)
    .registerFunction('kubernetes.URL.getHost(): string', (u: CelURL) => u.host)
    .registerFunction('kubernetes.URL.getHostname(): string', hostname)
    .registerFunction('kubernetes.URL.getPort(): string', port)
    .registerFunction('kubernetes.URL.getEscapedPath(): string', (u: CelURL) => encodeURI(decodeSafe(u.path)))
    .registerFunction('kubernetes.URL.getQuery(): map<string, list<string>>', query);
}

function decodeSafe(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}
