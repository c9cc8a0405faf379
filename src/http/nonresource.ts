/**
 * The paths that are not resources: /version, health checks, discovery and OpenAPI. Each is
 * authenticated and authorized by the engine (authorizePath) before it is served, so they
 * appear in the trace like any request.
 */
import { StatusError } from '../engine/api/status';
import type { Exchange } from './context';
import { aggregatedDiscovery, apiGroupDocument, apiGroupList, apiResourceList, apiVersions } from './discovery';
import { healthAnswer, isHealthEndpoint, needsEtcd } from './health';
import { contentTypeOf, negotiateOutput } from './negotiate';
import { openapiV3Index, serveOpenApiDocument } from './openapi';
import { openapiV2Document } from './openapi-v2';
import { acceptsV2Protobuf, openapiV2Protobuf, V2_PROTOBUF_CONTENT_TYPE } from './openapi-v2-proto';
import { notFoundError, writeBody, writeFailure, writeJson, writeStatus } from './respond';
import { VERSION_INFO } from './version';

/** Serves a non-resource path (404 where nothing is served). */
export async function serveNonResource(x: Exchange): Promise<void> {
  const { req, res, url, facade } = x;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const denied = await facade.api.authorizePath({ verb: req.method === 'HEAD' ? 'head' : (req.method ?? 'GET').toLowerCase(), path, token: x.token, impersonate: x.impersonate });
  if (denied) return writeJson(req, res, denied.code, denied.body, denied.warnings);
  if (req.method !== 'GET' && req.method !== 'HEAD') return writeStatus(req, res, notFoundError());

  const parts = path.split('/').filter(Boolean);
  const registry = facade.api.registry;
  const [first, second] = parts;

  if (path === '/version') return writeJson(req, res, 200, VERSION_INFO);
  if (first && isHealthEndpoint(first) && parts.length <= 3) {
    const check = parts.slice(1).join('/');
    const etcdError = needsEtcd(first, check) ? await facade.api.etcdHealth() : undefined;
    const answer = healthAnswer(first, check, url.searchParams.has('verbose'), etcdError, url.searchParams.getAll('exclude'));
    if (answer === undefined) return writeStatus(req, res, notFoundError());
    res.setHeader('X-Content-Type-Options', 'nosniff');
    return writeBody(req, res, answer.code, 'text/plain; charset=utf-8', answer.body);
  }
  if (first === 'openapi') {
    if (second === 'v3' && parts.length === 2) return writeBody(req, res, 200, 'application/json', openapiV3Index(registry));
    if (second === 'v3' && serveOpenApiDocument(req, res, registry, parts.slice(2).join('/'), url.searchParams.get('hash'))) return;
    if (second === 'v2' && parts.length === 2) {
      if (acceptsV2Protobuf(req.headers.accept)) return writeBody(req, res, 200, V2_PROTOBUF_CONTENT_TYPE, openapiV2Protobuf(registry));
      const out = negotiateOutput(req.headers.accept, 'resource');
      if (out instanceof StatusError) return writeStatus(req, res, out);
      return writeBody(req, res, 200, 'application/json', openapiV2Document(registry));
    }
    return writeStatus(req, res, notFoundError());
  }
  if (first === 'api' || first === 'apis') {
    const out = negotiateOutput(req.headers.accept, 'discovery');
    if (out instanceof StatusError) return writeStatus(req, res, out);
    const aggregator = facade.api.aggregator;
    if (parts.length === 1) {
      if (out.as === 'APIGroupDiscoveryList') return writeJson(req, res, 200, aggregatedDiscovery(registry, first === 'api', (g, v) => aggregator.isUnavailable(g, v)), [], contentTypeOf(out));
      return writeJson(req, res, 200, first === 'api' ? apiVersions(facade.address()) : apiGroupList(registry));
    }
    // The aggregator hands /apis/<group>/<version> of an APIService to its backend.
    if (first === 'apis' && parts.length === 3 && aggregator.isUnavailable(second!, parts[2]!)) {
      return writeFailure(req, res, { code: 503, body: {}, warnings: [], raw: { contentType: 'text/plain; charset=utf-8', text: 'service unavailable\n' } });
    }
    const doc =
      first === 'api' ? (parts.length === 2 ? apiResourceList(registry, '', second!) : undefined) : parts.length === 2 ? apiGroupDocument(registry, second!) : parts.length === 3 ? apiResourceList(registry, second!, parts[2]!) : undefined;
    if (doc) return writeJson(req, res, 200, doc);
  }
  return writeStatus(req, res, notFoundError());
}

