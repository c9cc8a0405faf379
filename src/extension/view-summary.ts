/**
 * What the extension host keeps of an object the Cluster tree shows: beside kubectl get's row,
 * only the fields the tree's labels, tooltips, icons and refreshes and the tree's commands read
 * (identity, owner, node, phase, a node's allocatable, an HPA's conditions, a ReplicaSet's
 * revision and images, an Event's object...). The engine worker sends these in its view stream
 * (src/protocol/engine.ts) instead of whole objects, so the host's heap does not grow with every
 * pod's spec, status and managed fields; a whole object is read from the worker when it is shown
 * (details, live YAML). Engine-free: it runs in the worker and is tested against whole objects.
 */
import type { JsonObject, JsonValue, KubeObject, ObjectMeta } from '../engine/api/types';
import { own, setOwn } from '../engine/api/own';
import { SERVICE_NAME_LABEL } from './view-queries';
import type { ViewKind } from './view-types';

/** The annotation a ReplicaSet's rollout revision is in (Rollout Undo's list). */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
type Json = JsonValue;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields of `from` named in `keys` that it has (in that order). */
function pick(from: unknown, keys: readonly string[]): JsonObject | undefined {
  if (!isObject(from)) return undefined;
  const out: JsonObject = {};
  let any = false;
  for (const k of keys) {
    const v = own(from, k);
    if (v !== undefined) {
      setOwn(out, k, v);
      any = true;
    }
  }
  return any ? out : undefined;
}

/** Sets `key` on `to` when `value` is there. */
function put(to: JsonObject, key: string, value: Json | undefined): void {
  if (value !== undefined) setOwn(to, key, value);
}

function metadata(kind: ViewKind, m: ObjectMeta): ObjectMeta {
  const out = (pick(m, ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp']) ?? {}) as ObjectMeta;
  if (m.ownerReferences) out.ownerReferences = m.ownerReferences.map((o) => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.name, uid: o.uid, ...(o.controller !== undefined ? { controller: o.controller } : {}) }));
  if (kind === 'endpointslices' && m.labels?.[SERVICE_NAME_LABEL] !== undefined) out.labels = { [SERVICE_NAME_LABEL]: m.labels[SERVICE_NAME_LABEL] };
  if (kind === 'replicasets' && m.annotations?.[REVISION_ANNOTATION] !== undefined) out.annotations = { [REVISION_ANNOTATION]: m.annotations[REVISION_ANNOTATION] };
  return out;
}

/** The images of a pod template's containers, each as its own { image } entry. */
function templateImages(spec: unknown): Json | undefined {
  const containers = (spec as { template?: { spec?: { containers?: unknown } } } | undefined)?.template?.spec?.containers;
  if (!Array.isArray(containers)) return undefined;
  return { spec: { containers: containers.map((c) => (pick(c, ['image']) ?? {}) as Json) } };
}

/** The summary of the object the host keeps for the tree: see the file's comment for what it holds. */
export function viewSummary(kind: ViewKind, object: KubeObject): KubeObject {
  const o = object as JsonObject & KubeObject;
  const out: KubeObject = { apiVersion: object.apiVersion, kind: object.kind, metadata: metadata(kind, object.metadata) };
  const spec: JsonObject = {};
  const status: JsonObject = {};
  switch (kind) {
    case 'nodes':
      put(spec, 'unschedulable', (o.spec as JsonObject | undefined)?.unschedulable);
      put(status, 'allocatable', (o.status as JsonObject | undefined)?.allocatable);
      break;
    case 'pods':
      put(spec, 'nodeName', (o.spec as JsonObject | undefined)?.nodeName);
      put(status, 'phase', (o.status as JsonObject | undefined)?.phase);
      break;
    case 'deployments':
      put(spec, 'replicas', (o.spec as JsonObject | undefined)?.replicas);
      break;
    case 'replicasets':
      put(spec, 'replicas', (o.spec as JsonObject | undefined)?.replicas);
      put(spec, 'template', templateImages(o.spec));
      break;
    case 'horizontalpodautoscalers': {
      const s = o.status as JsonObject | undefined;
      put(status, 'desiredReplicas', s?.desiredReplicas);
      if (Array.isArray(s?.conditions)) put(status, 'conditions', s.conditions.map((c) => (pick(c, ['type', 'status', 'reason', 'message']) ?? {}) as Json));
      break;
    }
    case 'events':
      // An Event's object as the tree's click reads it (involvedObject, else regarding).
      for (const about of ['involvedObject', 'regarding'] as const) if (isObject(o[about])) put(out as JsonObject, about, pick(o[about], ['kind', 'namespace', 'name']) ?? {});
      for (const t of ['lastTimestamp', 'eventTime'] as const) put(out as JsonObject, t, o[t]);
      break;
    case 'namespaces':
    case 'services':
    case 'endpointslices':
      break;
  }
  if (Object.keys(spec).length > 0) out.spec = spec;
  if (Object.keys(status).length > 0) out.status = status;
  return out;
}
