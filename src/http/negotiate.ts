/**
 * Content negotiation (the apiserver's negotiation package): which representation an Accept
 * header asks for. kubesim encodes JSON only; a client that accepts JSON among other types gets
 * JSON, one that accepts only protobuf or YAML gets 406. Conversions ride on media type
 * parameters: `as=Table;v=v1;g=meta.k8s.io`, `as=PartialObjectMetadata(List)`, and aggregated
 * discovery's `as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io`.
 */
import { StatusError } from '../engine/api/status';
import { setOwn } from '../engine/api/own';

export type Output =
  | { as: 'object' }
  | { as: 'Table'; version: 'v1' | 'v1beta1' }
  | { as: 'PartialObjectMetadata' | 'PartialObjectMetadataList'; version: 'v1' | 'v1beta1' }
  | { as: 'APIGroupDiscoveryList' };

/** Which conversions an endpoint serves: resources serve meta.k8s.io's, discovery its own. */
export type Endpoint = 'resource' | 'discovery';

interface Clause {
  type: string;
  params: Record<string, string>;
  q: number;
}

function parseAccept(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const part of header.split(',')) {
    const [type, ...rest] = part.split(';').map((s) => s.trim());
    if (!type) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim();
      if (k === 'q') q = Number(v);
      else setOwn(params, k, v);
    }
    clauses.push({ type: type.toLowerCase(), params, q: Number.isNaN(q) ? 0 : q });
  }
  return clauses.map((c, i) => ({ c, i })).sort((a, b) => b.c.q - a.c.q || a.i - b.i).map((x) => x.c);
}

function conversion(c: Clause, endpoint: Endpoint): Output | undefined {
  const { as, g, v } = c.params;
  if (as === undefined) return { as: 'object' };
  if (endpoint === 'discovery') return as === 'APIGroupDiscoveryList' && g === 'apidiscovery.k8s.io' && v === 'v2' ? { as } : undefined;
  if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) return undefined;
  if (as === 'Table' || as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return { as, version: v };
  return undefined;
}

export function notAcceptableError(): StatusError {
  return new StatusError({ code: 406, reason: 'NotAcceptable', message: 'only the following media types are accepted: application/json' });
}

/** The representation to answer with, or a 406 Status. */
export function negotiateOutput(accept: string | undefined, endpoint: Endpoint): Output | StatusError {
  if (!accept || accept.trim() === '') return { as: 'object' };
  for (const c of parseAccept(accept)) {
    if (c.q <= 0) continue;
    if (c.type !== 'application/json' && c.type !== '*/*' && c.type !== 'application/*') continue;
    const out = conversion(c, endpoint);
    if (out) return out;
  }
  return notAcceptableError();
}

/** The Content-Type of a converted response, as kube-apiserver labels it. */
export function contentTypeOf(out: Output): string {
  switch (out.as) {
    case 'object':
      return 'application/json';
    case 'APIGroupDiscoveryList':
      return 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
    default:
      return `application/json;as=${out.as};v=${out.version};g=meta.k8s.io`;
  }
}
