/**
 * Bringing one live object into the mirror through the mirror's API server, as the cluster
 * admin: create or update it (its status through the status subresource), then give it the
 * live object's managedFields (an update that changes nothing else takes them as they are), or
 * remove it entirely. Diagnostics send the Apply command's server-side apply to the mirror: who
 * owns which field decides what an apply removes and where it conflicts, so the ownership must
 * be the live cluster's, not the mirror's own writes. The mirror's own validation may refuse
 * what the live cluster accepted (a pod whose node was bound, an immutable field): then the
 * mirror's copy is replaced.
 */
import { isObject, parseApiVersion, type JsonObject, type JsonValue } from '../../engine/api/types';
import type { ResourceInfo } from '../../engine/api/registry';
import { ADMIN_USER } from '../../engine/apiserver/authn/user';
import type { ApiRequest, ApiResponse } from '../../engine/apiserver/request';
import type { ApiServer } from '../../engine/apiserver/server';
import { setOwn } from '../../engine/api/own';

/** Metadata the mirror's API server assigns itself. */
const SERVER_SET_METADATA = ['resourceVersion', 'uid', 'creationTimestamp', 'generation', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'] as const;

export interface ObjectRef {
  info: ResourceInfo;
  namespace: string;
  name: string;
}

export function objectRef(server: ApiServer, obj: JsonObject): ObjectRef | undefined {
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || !isObject(obj.metadata)) return undefined;
  const { group, version } = parseApiVersion(obj.apiVersion);
  const info = server.registry.byGvk(group, version, obj.kind);
  const name = obj.metadata.name;
  if (!info?.storagePrefix || typeof name !== 'string' || name === '') return undefined;
  const ns = obj.metadata.namespace;
  return { info, namespace: info.namespaced ? (typeof ns === 'string' && ns !== '' ? ns : 'default') : '', name };
}

type Call = Omit<ApiRequest, 'group' | 'version' | 'resource' | 'namespace' | 'name' | 'user'>;

/** A request about the object; a create addresses its collection. */
function request(ref: ObjectRef, r: Call): ApiRequest {
  const { info, namespace, name } = ref;
  const req: ApiRequest = { ...r, group: info.group, version: info.version, resource: info.resource, namespace: namespace || undefined, user: ADMIN_USER, userAgent: 'kubesim-mirror' };
  if (r.verb !== 'create') req.name = name;
  return req;
}

function failure(res: ApiResponse): string | undefined {
  return res.code >= 400 ? String(res.body.message ?? res.code) : undefined;
}

function resourceVersionOf(body: JsonObject): string {
  return isObject(body.metadata) && typeof body.metadata.resourceVersion === 'string' ? body.metadata.resourceVersion : '';
}

function withoutServerFields(obj: JsonObject): JsonObject {
  const { status: _status, ...rest } = obj;
  const metadata = { ...(obj.metadata as JsonObject) };
  for (const k of SERVER_SET_METADATA) delete metadata[k];
  return { ...rest, metadata };
}

const uidOf = (o: JsonObject): string => (isObject(o.metadata) && typeof o.metadata.uid === 'string' ? o.metadata.uid : '');

function relabelled(labels: JsonValue | undefined, from: string, to: string | undefined): JsonObject | undefined {
  if (!isObject(labels)) return undefined;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(labels)) {
    if (v !== from) setOwn(out, k, v);
    else if (to !== undefined) setOwn(out, k, to);
  }
  return out;
}

/**
 * The mirror's copy has a uid of its own (the API server assigns it). Labels that carry the
 * object's own uid (a Job's generated selector and template labels, batch.kubernetes.io/
 * controller-uid) name the mirror's uid instead: left out on create, so that the strategy
 * generates them as it did in the live cluster, and replaced on update.
 */
function withOwnUid(body: JsonObject, liveUid: string, mirrorUid: string | undefined): JsonObject {
  if (!liveUid || !isObject(body.spec)) return body;
  const spec = { ...body.spec };
  if (isObject(spec.selector) && isObject(spec.selector.matchLabels)) spec.selector = { ...spec.selector, matchLabels: relabelled(spec.selector.matchLabels, liveUid, mirrorUid)! };
  if (isObject(spec.template) && isObject(spec.template.metadata) && isObject(spec.template.metadata.labels)) {
    spec.template = { ...spec.template, metadata: { ...spec.template.metadata, labels: relabelled(spec.template.metadata.labels, liveUid, mirrorUid)! } };
  }
  return { ...body, spec };
}

export interface PutResult {
  /** The message of the mirror's API server when it refused the object. */
  refused?: string;
  /** The uid of the mirror's copy. */
  uid?: string;
}

/** Creates or updates the mirror's copy. */
export async function putObject(server: ApiServer, ref: ObjectRef, obj: JsonObject): Promise<PutResult> {
  const refused = await put(server, ref, obj);
  if (refused) return { refused };
  const stored = await server.handle(request(ref, { verb: 'get' }));
  return stored.code === 200 ? { uid: uidOf(stored.body) } : {};
}

async function put(server: ApiServer, ref: ObjectRef, obj: JsonObject): Promise<string | undefined> {
  const body = withoutServerFields(obj);
  const liveUid = uidOf(obj);
  const current = await server.handle(request(ref, { verb: 'get' }));
  const create = () => server.handle(request(ref, { verb: 'create', body: { object: withOwnUid(body, liveUid, undefined) } }));
  let res: ApiResponse;
  if (current.code === 404) {
    res = await create();
  } else {
    const updated = withOwnUid(body, liveUid, uidOf(current.body));
    const meta = { ...(updated.metadata as JsonObject), resourceVersion: resourceVersionOf(current.body) };
    res = await server.handle(request(ref, { verb: 'update', body: { object: { ...updated, metadata: meta } } }));
    if (res.code === 422 || res.code === 409) {
      await removeObject(server, ref);
      res = await create();
    }
  }
  const refused = failure(res);
  if (refused) return refused;
  if (isObject(obj.metadata) && obj.metadata.deletionTimestamp) {
    // Terminating in the live cluster: deleting it here marks it so (a namespace then refuses
    // new content, as it does there); its status follows from that.
    return failure(await server.handle(request(ref, { verb: 'delete' })));
  }
  let stored = res.body;
  if (isObject(obj.status) && ref.info.subresources.some((s) => s.name === 'status')) {
    const status = await server.handle(request(ref, { verb: 'update', subresource: 'status', body: { object: { ...res.body, status: obj.status } } }));
    const statusRefused = failure(status);
    if (statusRefused) return statusRefused;
    stored = status.body;
  }
  return ownership(server, ref, stored, obj);
}

const managedFieldsOf = (o: JsonObject): unknown[] => (isObject(o.metadata) && Array.isArray(o.metadata.managedFields) ? o.metadata.managedFields : []);

/**
 * The live object's managedFields on the mirror's copy: an update whose only change is the
 * list replaces it as given (FieldManager.Update), and `[{}]` (isResetManagedFields) clears the
 * mirror's own entries when the live object is untracked.
 */
async function ownership(server: ApiServer, ref: ObjectRef, stored: JsonObject, live: JsonObject): Promise<string | undefined> {
  const wanted = managedFieldsOf(live);
  if (JSON.stringify(managedFieldsOf(stored)) === JSON.stringify(wanted)) return undefined;
  const meta = { ...(stored.metadata as JsonObject), managedFields: (wanted.length > 0 ? wanted : [{}]) as JsonObject[] };
  return failure(await server.handle(request(ref, { verb: 'update', body: { object: { ...stored, metadata: meta } } })));
}

/**
 * Removes the mirror's copy at once: finalizers cleared, no grace period. Dependents stay until
 * their own deletion arrives (the mirror runs no garbage collector).
 */
export async function removeObject(server: ApiServer, ref: ObjectRef): Promise<string | undefined> {
  const del = { verb: 'delete' as const, options: { gracePeriodSeconds: 0 } };
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await server.handle(request(ref, { verb: 'get' }));
    if (current.code === 404) return undefined;
    const meta = isObject(current.body.metadata) ? current.body.metadata : {};
    if (Array.isArray(meta.finalizers) && meta.finalizers.length > 0) {
      await server.handle(request(ref, { verb: 'update', body: { object: { ...current.body, metadata: { ...meta, finalizers: [] } } } }));
      continue;
    }
    const spec = isObject(current.body.spec) ? current.body.spec : {};
    if (ref.info.group === '' && ref.info.resource === 'namespaces' && Array.isArray(spec.finalizers) && spec.finalizers.length > 0) {
      if (!meta.deletionTimestamp) await server.handle(request(ref, del));
      const terminating = await server.handle(request(ref, { verb: 'get' }));
      await server.handle(request(ref, { verb: 'update', subresource: 'finalize', body: { object: { ...terminating.body, spec: { ...spec, finalizers: [] } } } }));
      continue;
    }
    const res = await server.handle(request(ref, del));
    if (res.code < 400 || res.code === 404) {
      if ((await server.handle(request(ref, { verb: 'get' }))).code === 404) return undefined;
      continue;
    }
    return failure(res);
  }
  return `${ref.info.resource} "${ref.name}" could not be removed from the mirror`;
}
