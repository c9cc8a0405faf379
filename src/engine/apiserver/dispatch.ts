/**
 * From an authorized request to its handler: find the resource (404 for what is not served, 405
 * for verbs it does not take), check the namespace and name, and call the verb's handler.
 */
import { badRequestError, methodNotSupportedError, StatusError } from '../api/status';
import { isValidPathSegmentName } from '../api/names';
import type { JsonObject } from '../api/types';
import type { AggregatedBackend } from './aggregator';
import type { RequestContext, Target } from './context';
import { handleApply } from './handlers/apply';
import { handleCreate } from './handlers/create';
import { deleteObject, deleteOptions, type DeleteOutcome } from './handlers/delete';
import { deleteCustomResourceDefinition } from './handlers/delete-crd';
import { deleteNamespace } from './handlers/delete-namespace';
import { deleteCollection } from './handlers/delete-collection';
import { handlePatch } from './handlers/patch';
import { getObject, listObjects } from './handlers/read';
import { createBinding } from './handlers/binding';
import { getComponentStatus, listComponentStatuses } from './handlers/component-status';
import { createEviction } from './handlers/eviction';
import { createReview, reviewHandler } from './handlers/reviews';
import { createTokenRequest } from './handlers/token-request';
import { getScale, patchScale, updateScale } from './handlers/scale';
import { handleUpdate } from './handlers/update';
import type { UpdateResult } from './handlers/write';
import { groupResource } from './resources';
import { warnIfDeprecated } from './deprecation';
import { table } from '../api/own';

export interface HandlerResult {
  code: number;
  body: JsonObject;
}

export function notServedError(): StatusError {
  return new StatusError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} });
}

const NAMED_VERBS = new Set(['get', 'update', 'patch', 'delete']);

/**
 * The subresources the API server serves itself; for log it finds the pod and container, and the
 * HTTP facade reads the output from the kubelet.
 */
const SERVED_SUBRESOURCES = new Set(['status', 'scale', 'binding', 'finalize', 'eviction', 'log', 'token']);

/** Streams into a running process, which simulated containers do not have: what is missing. */
const PROCESS_SUBRESOURCES = table<string>({ exec: 'exec into', attach: 'attach to', portforward: 'forward to', proxy: 'proxy to' });

function noProcessError(subresource: string): StatusError {
  return badRequestError(`${subresource} is not available in kubesim: simulated containers run no processes, so there is nothing to ${PROCESS_SUBRESOURCES[subresource]}`);
}

export function resolveTarget(ctx: RequestContext): Target {
  const r = ctx.request;
  const info = ctx.server.registry.byGroupResource(r.group, r.resource, r.version);
  if (!info) throw notServedError();
  const subresource = r.subresource ?? '';
  const sub = subresource ? info.subresources.find((s) => s.name === subresource) : undefined;
  if (sub && Object.hasOwn(PROCESS_SUBRESOURCES, subresource)) throw noProcessError(subresource);
  if (subresource && (!sub || !SERVED_SUBRESOURCES.has(subresource))) throw notServedError();
  const verbs = sub ? sub.verbs : info.verbs;
  if (!verbs.includes(r.verb)) throw methodNotSupportedError(groupResource(info), r.verb);
  const storage = ctx.server.storage.for(info);
  if (!storage) throw notServedError();
  const namespace = info.namespaced ? r.namespace ?? '' : '';
  if (!info.namespaced && r.namespace) throw notServedError();
  const name = r.name ?? '';
  if (info.namespaced && !namespace && (NAMED_VERBS.has(r.verb) || r.verb === 'create')) throw badRequestError('Namespace parameter required.');
  if (NAMED_VERBS.has(r.verb) || subresource) {
    if (!name) throw badRequestError('Name parameter required.');
    const msgs = isValidPathSegmentName(name);
    if (msgs.length > 0) throw badRequestError(`Name parameter invalid: ${JSON.stringify(name)}: ${msgs.join(';')}`);
  }
  return { info, storage, strategy: ctx.server.strategy(info), namespace, name, subresource };
}

const updated = (r: UpdateResult): HandlerResult => ({ code: r.created ? 201 : 200, body: r.object as JsonObject });
const object = (code: number, body: unknown): HandlerResult => ({ code, body: body as JsonObject });

function deleted(ctx: RequestContext, outcome: DeleteOutcome): HandlerResult {
  const accepted = !outcome.deleted && ctx.options.orphanDependents === false;
  return { code: accepted ? 202 : 200, body: outcome.body };
}

/** A request, to an aggregated API, to a computed resource (the reviews) or to a stored one. */
export async function serveRequest(ctx: RequestContext): Promise<HandlerResult> {
  const r = ctx.request;
  const backend = ctx.server.aggregator.backendFor(r.group, r.version);
  if (backend) return serveAggregated(ctx, backend);
  const info = ctx.server.registry.byGroupResource(r.group, r.resource, r.version);
  if (info) warnIfDeprecated(ctx);
  if (info && info.group === '' && info.resource === 'componentstatuses' && !r.subresource) {
    if (r.verb === 'get') return object(200, getComponentStatus(r.name ?? ''));
    if (r.verb === 'list') return object(200, listComponentStatuses());
  }
  const review = info && !r.subresource ? reviewHandler(info) : undefined;
  if (!info || !review) return dispatch(ctx, resolveTarget(ctx));
  if (r.verb !== 'create') throw methodNotSupportedError(groupResource(info), r.verb);
  return createReview(ctx, info, review);
}

/** The aggregator hands the authorized request to the APIService's backend. */
export function serveAggregated(ctx: RequestContext, backend: AggregatedBackend): Promise<HandlerResult> {
  const r = ctx.request;
  return ctx.server.aggregator.serve(backend, {
    verb: r.verb,
    resource: r.resource,
    subresource: r.subresource,
    namespace: r.namespace,
    name: r.name,
    labelSelector: ctx.options.labelSelector,
    fieldSelector: ctx.options.fieldSelector,
    user: ctx.user!,
  });
}

export async function dispatch(ctx: RequestContext, t: Target): Promise<HandlerResult> {
  const verb = ctx.request.verb;
  switch (verb) {
    case 'get':
      return object(200, t.subresource === 'scale' ? await getScale(ctx, t) : await getObject(ctx, t));
    case 'list':
      return object(200, await listObjects(ctx, t));
    case 'create':
      if (t.subresource === 'binding') return object(201, await createBinding(ctx, t));
      if (t.subresource === 'eviction') return createEviction(ctx, t);
      if (t.subresource === 'token') return object(201, await createTokenRequest(ctx, t));
      if (t.subresource) throw methodNotSupportedError(groupResource(t.info), `${verb} ${t.subresource}`);
      return object(201, await handleCreate(ctx, t));
    case 'update':
      return updated(t.subresource === 'scale' ? await updateScale(ctx, t) : await handleUpdate(ctx, t));
    case 'patch':
      if (t.subresource === 'scale') return updated(await patchScale(ctx, t));
      return updated(ctx.request.patchType === 'apply' ? await handleApply(ctx, t) : await handlePatch(ctx, t));
    case 'delete': {
      const options = deleteOptions(ctx);
      if (t.info.group === '' && t.info.resource === 'namespaces') return deleted(ctx, await deleteNamespace(ctx, t, options));
      if (t.info.group === 'apiextensions.k8s.io' && t.info.resource === 'customresourcedefinitions') return deleted(ctx, await deleteCustomResourceDefinition(ctx, t, options));
      return deleted(ctx, await deleteObject(ctx, t, options));
    }
    case 'deletecollection':
      return object(200, await deleteCollection(ctx, t, deleteOptions(ctx)));
    case 'watch':
      throw badRequestError('watch requests are served by ApiServer.watch');
  }
}
