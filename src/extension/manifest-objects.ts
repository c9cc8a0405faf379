/**
 * The objects a manifest names, and `kubectl delete -f` of each: one DELETE per document
 * (background propagation, kubectl's default cascade), reported as kubectl reports it
 * (`deployment.apps "web" deleted from default namespace`; errors with the file as their source).
 */
import { formatKubectlError, withSource } from '../engine/kubectl/format';
import { noKindMatchMessage } from '../engine/api/registry';
import type { Status } from '../engine/api/status';
import { isObject, parseApiVersion, type JsonObject } from '../engine/api/types';
import { parseManifest } from '../engine/apiserver/decode';
import type { Client } from '../engine/client/client';
import type { ApplyResult } from '../engine/kubectl/apply';

/** An object as the API addresses it. */
export interface ObjectRef {
  group: string;
  version: string;
  resource: string;
  kind: string;
  /** Absent for cluster-scoped objects. */
  namespace?: string;
  name: string;
}

export type Resolved = { ref: ObjectRef; doc: number } | { error: string; doc: number };

/** The objects of a manifest's documents, or kubectl's error for each document that names none. */
export function manifestObjects(client: Client, file: string, text: string, defaultNamespace = 'default'): Resolved[] {
  return parseManifest(text, file).map((doc): Resolved => {
    if (doc.errors.length > 0 || !doc.object) return { error: doc.errors.map((e) => `error: ${e.kubectl}`).join('\n'), doc: doc.index };
    const obj = doc.object as JsonObject;
    const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
    const kind = typeof obj.kind === 'string' ? obj.kind : '';
    const meta = isObject(obj.metadata) ? obj.metadata : {};
    const name = typeof meta.name === 'string' ? meta.name : '';
    const { group, version } = parseApiVersion(apiVersion);
    const info = client.server.registry.byGvk(group, version, kind);
    if (!info) {
      const versions = client.server.registry.versionsOfKind(group, kind);
      return { error: `error: resource mapping not found for name: "${name}" namespace: "" from "${file}": ${noKindMatchMessage(group, kind, versions.length > 0 ? versions : [version])}\nensure CRDs are installed first`, doc: doc.index };
    }
    if (!name) return { error: `error: resource name may not be empty`, doc: doc.index };
    const namespace = info.namespaced ? (typeof meta.namespace === 'string' && meta.namespace) || defaultNamespace : undefined;
    return { ref: { group: info.group, version: info.version, resource: info.resource, kind: info.kind, namespace, name }, doc: doc.index };
  });
}

/** kubectl's name for a kind: `deployment.apps`, `service`. */
export function kindString(ref: Pick<ObjectRef, 'group' | 'kind'>): string {
  return ref.group ? `${ref.kind.toLowerCase()}.${ref.group}` : ref.kind.toLowerCase();
}

/** One document of `kubectl delete -f`. */
export async function deleteManifestObject(client: Client, file: string, r: Resolved): Promise<ApplyResult> {
  if ('error' in r) return { file, index: r.doc, ref: '', action: 'failed', message: r.error, warnings: [] };
  const { ref } = r;
    const name = `${kindString(ref)}/${ref.name}`;
  const res = await client.request({ verb: 'delete', group: ref.group, version: ref.version, resource: ref.resource, namespace: ref.namespace, name: ref.name, options: { propagationPolicy: 'Background' } });
  if (res.code >= 400) {
    const status = res.body as Status;
    return { file, index: r.doc, ref: name, action: 'failed', message: formatKubectlError(withSource(status, 'deleting', file)).trimEnd(), warnings: res.warnings, status, trace: res.trace };
  }
  const where = ref.namespace ? ` from ${ref.namespace} namespace` : '';
  return { file, index: r.doc, ref: name, action: 'deleted', message: `${kindString(ref)} "${ref.name}" deleted${where}`, warnings: res.warnings, trace: res.trace };
}
