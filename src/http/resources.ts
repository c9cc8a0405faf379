/**
 * Resource requests (/api/v1/..., /apis/<group>/<version>/...): the URL, query and body become
 * an ApiRequest for the engine's API server, whose answer is written back, as a Table or
 * PartialObjectMetadata when the Accept header asks for one. Watches stream; pods/log reads from
 * the kubelets.
 */
import { Path, notSupported } from '../engine/api/field';
import { invalidError, StatusError } from '../engine/api/status';
import { isObject } from '../engine/api/types';
import type { RequestInfo } from '../engine/apiserver/request-info';
import type { ApiRequest, RequestBody, Verb } from '../engine/apiserver/request';
import { MAX_DEPTH, MAX_REQUEST_BODY_BYTES } from '../engine/apiserver/decode';
import { parseJson } from '../engine/apiserver/decode/json-parse';
import { toJsonValue } from '../engine/apiserver/decode/source';
import { patchTypeOf, readBody, writeContentType } from './body';
import type { Exchange } from './context';
import { serveLogs } from './pod-logs';
import { decodeProtobuf, PROTOBUF_CONTENT_TYPE } from './protobuf/decode';
import { contentTypeOf, negotiateOutput, type Output } from './negotiate';
import { parseQuery, tableOptionsError, type QueryOptions } from './query';
import { notFoundError, writeFailure, writeJson, writeStatus } from './respond';
import { printerOf, transform, type TransformContext } from './table';
import { traceRefusal } from './trace';
import { serveWatch } from './watch';
import { table } from '../engine/api/own';

const ENGINE_VERBS = new Set<string>(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']);
const WRITE_KIND = table<string>({ create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions', delete: 'DeleteOptions', deletecollection: 'DeleteOptions' });

/** dryRun values other than "All": the options' validation error. */
function dryRunError(verb: string, values: string[]): StatusError {
  return invalidError({ group: 'meta.k8s.io', name: WRITE_KIND[verb] ?? 'CreateOptions' }, '', [notSupported(Path.root('dryRun'), values, ['All'])]);
}

function badBody(message: string): StatusError {
  return new StatusError({ code: 400, reason: 'BadRequest', message });
}

/** The engine's RequestBody for the verb, or an error to answer with. */
async function requestBody(x: Exchange, verb: string): Promise<{ body?: RequestBody; patchType?: ApiRequest['patchType'] } | StatusError> {
  if (verb !== 'create' && verb !== 'update' && verb !== 'patch' && verb !== 'delete' && verb !== 'deletecollection') return {};
  const raw = await readBody(x.req);
  const contentTypeHeader = x.req.headers['content-type'];
  if (verb === 'patch') {
    const patchType = patchTypeOf(contentTypeHeader);
    if (patchType instanceof StatusError) return patchType;
    return { body: { text: raw.bytes.toString('utf8'), contentType: patchType === 'apply' ? 'application/yaml' : 'application/json' }, patchType };
  }
  const deleting = verb === 'delete' || verb === 'deletecollection';
  if (deleting && raw.bytes.length === 0) return {};
  const contentType = writeContentType(contentTypeHeader);
  if (contentType instanceof StatusError) return contentType;
  // The engine decodes text itself (and refuses oversized bodies after authorization).
  if (!deleting && contentType !== PROTOBUF_CONTENT_TYPE) return { body: { text: raw.bytes.toString('utf8'), contentType } };
  if (raw.tooLarge) return new StatusError({ code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}` });
  if (contentType === PROTOBUF_CONTENT_TYPE) {
    const object = decodeProtobuf(raw.bytes);
    return typeof object === 'string' ? badBody(object) : { body: { object } };
  }
  const parsed = contentType === 'application/json' ? parseJson(raw.bytes.toString('utf8'), MAX_DEPTH) : undefined;
  if (parsed && !parsed.ok) return badBody(parsed.error.message);
  const value = parsed ? toJsonValue(parsed.value.node) : undefined;
  if (!isObject(value)) return badBody('decoded object cannot be converted to DeleteOptions');
  return { body: { object: value } };
}

export async function serveResource(x: Exchange, info: RequestInfo): Promise<void> {
  const { req, res, facade } = x;
  const refuse = (err: StatusError): void => {
    traceRefusal(x, info, err);
    writeStatus(req, res, err);
  };
  const query = parseQuery(x.url.searchParams);
  if (query instanceof StatusError) return refuse(query);
  const out = negotiateOutput(req.headers.accept, 'resource');
  const verb = info.verb;
  if (!ENGINE_VERBS.has(verb)) return refuse(notFoundError());
  if (query.badDryRun) return refuse(dryRunError(verb, query.badDryRun));

  const body = await requestBody(x, verb);
  if (body instanceof StatusError) return refuse(body);
  const request: ApiRequest = {
    verb: verb as Verb,
    token: x.token,
    impersonate: x.impersonate,
    userAgent: x.userAgent,
    group: info.apiGroup,
    version: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource || undefined,
    // For /api/v1/namespaces/<name> the request info's namespace is the object's own name.
    namespace: (info.apiGroup === '' && info.resource === 'namespaces' ? '' : info.namespace) || undefined,
    name: info.name || undefined,
    options: query.options,
    ...body,
  };

  const table = out instanceof StatusError || out.as !== 'Table' ? undefined : await tableContext(x, info, query);
  if (table instanceof StatusError) return refuse(table);
  if (verb === 'watch') {
    if (out instanceof StatusError) return refuse(out);
    return serveWatch(x, request, out, table, query.timeoutSeconds);
  }
  if (info.subresource === 'log' && verb === 'get') return serveLogs(x, request);

  const response = await facade.api.handle(request);
  if (response.code >= 300) return writeFailure(req, res, response);
  // kube-apiserver negotiates the response's form after serving the request.
  if (out instanceof StatusError) return writeStatus(req, res, out, response.warnings);
  const converted = verb === 'get' || verb === 'list' ? out : ({ as: 'object' } as Output);
  writeJson(req, res, response.code, transform(response.body, converted, table), response.warnings, contentTypeOf(converted));
}

async function tableContext(x: Exchange, info: RequestInfo, query: QueryOptions): Promise<TransformContext | StatusError | undefined> {
  const bad = tableOptionsError(query.includeObject);
  if (bad) return bad;
  const registry = x.facade.api.registry;
  const resource = registry.byGroupResource(info.apiGroup, info.resource, info.apiVersion);
  if (!resource) return undefined;
  const printer = await printerOf(x.facade.api.reader, resource, info.subresource);
  return { printer, now: x.facade.clock.now(), include: query.includeObject };
}

