/**
 * kube-apiserver's RequestInfoResolver: what a URL and method ask for (verb, group, version,
 * resource, subresource, namespace, name), as authorization and admission see it. The HTTP
 * facade uses it to turn a request into an ApiRequest.
 */
import { isValidPathSegmentName } from '../api/names';
import { table } from '../api/own';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  parts: string[];
  fieldSelector?: string;
  labelSelector?: string;
}

const API_PREFIXES = new Set(['api', 'apis']);
const GROUPLESS_PREFIXES = new Set(['api']);
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
const SPECIAL_VERBS_NO_SUBRESOURCES = new Set(['proxy']);
// Parts after /namespaces/{name} that are subresources of the namespace, not resources in it.
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const VERBS_WITH_SELECTORS = new Set(['list', 'watch', 'deletecollection']);

const METHOD_VERBS = table<string>({
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
});

export class RequestInfoError extends Error {}

export function resolveRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
  let parts = splitPath(path);
  if (parts.length < 3 || !API_PREFIXES.has(parts[0]!)) return info;
  info.apiPrefix = parts[0]!;
  parts = parts.slice(1);
  if (!GROUPLESS_PREFIXES.has(info.apiPrefix)) {
    if (parts.length < 3) return info;
    info.apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  info.isResourceRequest = true;
  info.apiVersion = parts[0]!;
  parts = parts.slice(1);

  let verbViaPath = false;
  if (SPECIAL_VERBS.has(parts[0]!)) {
    if (parts.length < 2) throw new RequestInfoError(`unable to determine kind and namespace from url, ${path}`);
    info.verb = parts[0]!;
    parts = parts.slice(1);
    verbViaPath = true;
  } else {
    info.verb = METHOD_VERBS[method.toUpperCase()] ?? '';
  }

  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      info.namespace = parts[1]!;
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
    }
  }
  info.parts = parts;
  if (parts.length >= 3 && !SPECIAL_VERBS_NO_SUBRESOURCES.has(info.verb)) info.subresource = parts[2]!;
  if (parts.length >= 2) info.name = parts[1]!;
  if (parts.length >= 1) info.resource = parts[0]!;

  if (!info.name && info.verb === 'get') {
    info.verb = isTrue(query.get('watch')) ? 'watch' : 'list';
    const name = exactNameMatch(query.get('fieldSelector'));
    if (name !== undefined && isValidPathSegmentName(name).length === 0) info.name = name;
  }
  if (!info.name && info.verb === 'delete') info.verb = 'deletecollection';

  if (!verbViaPath && VERBS_WITH_SELECTORS.has(info.verb)) {
    const fs = query.get('fieldSelector');
    const ls = query.get('labelSelector');
    if (fs !== null) info.fieldSelector = fs;
    if (ls !== null) info.labelSelector = ls;
  }
  return info;
}

function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

// The query parameter decoder's reading of a boolean: anything but "false"/"0" is true.
function isTrue(v: string | null): boolean {
  if (v === null) return false;
  const s = v.toLowerCase();
  return s !== 'false' && s !== '0';
}

// fieldSelector RequiresExactMatch("metadata.name"): the value of a single `=`/`==` term.
export function exactNameMatch(selector: string | null): string | undefined {
  if (!selector) return undefined;
  for (const term of selector.split(',')) {
    const m = /^\s*metadata\.name\s*(==|=)\s*(.*?)\s*$/.exec(term);
    if (m) return m[2];
  }
  return undefined;
}
