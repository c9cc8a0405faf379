/**
 * Webhook client configuration (k8s.io/apiserver/pkg/util/webhook): an https URL, or a Service
 * reference with a port and a path of DNS-subdomain segments.
 */
import { invalid, required, type ErrorList, type Path } from '../../../api/field';
import { goQuote } from '../../../api/gofmt';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum } from '../../../api/names';

interface ParsedURL {
  scheme: string;
  user?: string;
  host: string;
  fragment: string;
  rawQuery: string;
}

/** The parts of Go's url.Parse the webhook rules look at, or its error text. */
function parseURL(raw: string): ParsedURL | string {
  const fail = (msg: string): string => `parse ${goQuote(raw)}: ${msg}`;
  if (/[\x00-\x1f\x7f]/.test(raw)) return fail('net/url: invalid control character in URL');
  const hash = raw.indexOf('#');
  const fragment = hash < 0 ? '' : raw.slice(hash + 1);
  let rest = hash < 0 ? raw : raw.slice(0, hash);
  if (/%(?![0-9a-fA-F]{2})/.test(rest)) {
    const bad = /%.{0,2}/.exec(rest.slice(rest.search(/%(?![0-9a-fA-F]{2})/)))?.[0] ?? '%';
    return fail(`invalid URL escape ${goQuote(bad)}`);
  }
  let scheme = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (rest.startsWith(':')) return fail('missing protocol scheme');
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  }
  const q = rest.indexOf('?');
  const rawQuery = q < 0 ? '' : rest.slice(q + 1);
  if (q >= 0) rest = rest.slice(0, q);
  let host = '';
  let user: string | undefined;
  if (rest.startsWith('//')) {
    const authorityEnd = rest.indexOf('/', 2);
    let authority = authorityEnd < 0 ? rest.slice(2) : rest.slice(2, authorityEnd);
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      user = authority.slice(0, at);
      authority = authority.slice(at + 1);
    }
    host = authority;
    const bad = /[^A-Za-z0-9\-._~!$&'()*+,;=:\[\]%]/.exec(host);
    if (bad) return fail(`invalid character ${goQuote(bad[0])} in host name`);
    const port = /^(?:\[[^\]]*\]|[^:]*)(:.*)?$/.exec(host)?.[1];
    if (port !== undefined && !/^:[0-9]*$/.test(port)) return fail(`invalid port ${goQuote(port)} after host`);
  }
  return { scheme, ...(user !== undefined ? { user } : {}), host, fragment, rawQuery };
}

const form = '; desired format: https://host[/path]';

export function validateWebhookURL(fldPath: Path, url: string, forceHttps: boolean): ErrorList {
  const u = parseURL(url);
  if (typeof u === 'string') return [required(fldPath, `url must be a valid URL: ${u}${form}`)];
  const errs: ErrorList = [];
  if (forceHttps && u.scheme !== 'https') errs.push(invalid(fldPath, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host.length === 0) errs.push(invalid(fldPath, u.host, `host must be specified${form}`));
  if (u.user !== undefined) errs.push(invalid(fldPath, u.user, 'user information is not permitted in the URL'));
  if (u.fragment.length > 0) errs.push(invalid(fldPath, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery.length > 0) errs.push(invalid(fldPath, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/**
 * ValidateWebhookService. Its callers pass the service name where the function expects the
 * namespace and vice versa, so a missing name is reported as a missing namespace; kept as is.
 */
export function validateWebhookService(fldPath: Path, namespace: string, name: string, path: string | undefined, port: number): ErrorList {
  const errs: ErrorList = [];
  if (name.length === 0) errs.push(required(fldPath.child('name'), ''));
  if (namespace.length === 0) errs.push(required(fldPath.child('namespace'), ''));
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid(fldPath.child('port'), port, 'port is not valid: ' + portErrs.join(', ')));
  if (path === undefined || path === '/' || path === '') return errs;
  const p = fldPath.child('path');
  if (path === '//') return [...errs, invalid(p, path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errs.push(invalid(p, path, "must start with a '/'"));
  let toCheck = path.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalid(p, path, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(invalid(p, path, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/**
 * The review versions a webhook speaks (admissionReviewVersions, a CRD's
 * conversionReviewVersions): DNS-1035 labels, none twice, and (when required) at least one the
 * API server sends. An empty list is the caller's `required` error: its detail differs.
 */
export function validateReviewVersions(versions: string[], accepted: readonly string[], requireRecognized: boolean, fldPath: Path, emptyDetail: string): ErrorList {
  if (versions.length < 1) return [required(fldPath, emptyDetail)];
  const errs: ErrorList = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(fldPath.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(invalid(fldPath.index(i), v, msg));
  });
  if (requireRecognized && !versions.some((v) => accepted.includes(v))) {
    errs.push(invalid(fldPath, versions, `must include at least one of ${accepted.join(', ')}`));
  }
  return errs;
}
