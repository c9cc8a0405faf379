/**
 * /openapi/v3: the index of group-version documents with their hashes, and each document byte
 * for byte from the vendored 1.35 data. A request with the current ?hash= is cacheable forever
 * (public, immutable); a stale hash is redirected to the current one, as kube-openapi does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listOpenApiPaths, openapiDocument, openapiDocumentHash } from '../engine/api/openapi';
import type { ResourceRegistry } from '../engine/api/registry';
import { encodeJson } from './json';
import { baseHeaders, writeBody } from './respond';
import { setOwn } from '../engine/api/own';

/** The vendored documents of the group-versions the cluster serves. */
export function servedOpenApiPaths(registry: ResourceRegistry): string[] {
  const served = new Set(registry.all().map((r) => (r.group ? `apis/${r.group}/${r.version}` : `api/${r.version}`)));
  return listOpenApiPaths().filter((p) => served.has(p));
}

export function openapiV3Index(registry: ResourceRegistry): string {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const p of servedOpenApiPaths(registry)) setOwn(paths, p, { serverRelativeURL: `/openapi/v3/${p}?hash=${openapiDocumentHash(p)}` });
  return encodeJson({ paths });
}

/** Serves /openapi/v3/<path>; false when there is no such document. */
export function serveOpenApiDocument(req: IncomingMessage, res: ServerResponse, registry: ResourceRegistry, path: string, hash: string | null): boolean {
  if (!servedOpenApiPaths(registry).includes(path)) return false;
  const etag = openapiDocumentHash(path)!;
  const bytes = openapiDocument(path)!;
  if (hash !== null && hash !== etag) {
    baseHeaders(res);
    res.setHeader('Location', `/openapi/v3/${path}?hash=${etag}`);
    res.writeHead(301);
    res.end();
    return true;
  }
  res.setHeader('Etag', `"${etag}"`);
  if (hash !== null) {
    res.setHeader('Vary', 'Accept');
    res.setHeader('Cache-Control', 'public, immutable');
    res.setHeader('Expires', new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString());
  }
  if (req.headers['if-none-match'] === `"${etag}"`) {
    res.writeHead(304);
    res.end();
    return true;
  }
  writeBody(req, res, 200, 'application/json', bytes);
  return true;
}
