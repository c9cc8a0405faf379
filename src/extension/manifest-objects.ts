/**
 * The objects a manifest names, and `kubectl delete -f` of each: one DELETE per document
 * (background propagation, kubectl's default cascade), reported as kubectl reports it
 * (`deployment.apps "web" deleted from default namespace`; errors with the file as their source).
 */
import { formatKubectlError, withSource } from '../engine/kubectl/format';
import { noKindMatchMessage } from '../engine/api/registry';
import type { Status } from '../engine/api/status';
import type { JsonObject } from '../engine/api/types';
import { parseManifest } from '../engine/apiserver/decode';
import type { Client } from '../engine/client/client';
import { documentIdentity, type ApplyResult } from '../engine/kubectl/apply';
import { fail, ok, type Result } from '../engine/api/result';

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

/** A document's object, or kubectl's error for a document that names none. */
export interface Resolved {
  doc: number;
  ref: Result<ObjectRef>;
}

/** The objects of a manifest's documents, or kubectl's error for each document that names none. */
export function manifestObjects(client: Client, file: string, text: string, defaultNamespace = 'default'): Resolved[] {
  return parseManifest(text, file).map((doc): Resolved => {
    if (doc.errors.length > 0 || !doc.object) return { doc: doc.index, ref: fail(doc.errors.map((e) => `error: ${e.kubectl}`).join('\n')) };
    const { group, version, kind, name, namespace: ns } = documentIdentity(doc.object as JsonObject);
    const info = client.server.registry.byGvk(group, version, kind);
    if (!info) {
      const versions = client.server.registry.versionsOfKind(group, kind);
      return { doc: doc.index, ref: fail(`error: resource mapping not found for name: "${name}" namespace: "" from "${file}": ${noKindMatchMessage(group, kind, versions.length > 0 ? versions : [version])}\nensure CRDs are installed first`) };
    }
    if (!name) return { doc: doc.index, ref: fail(`error: resource name may not be empty`) };
    const namespace = info.namespaced ? ns || defaultNamespace : undefined;
    return { doc: doc.index, ref: ok({ group: info.group, version: info.version, resource: info.resource, kind: info.kind, namespace, name }) };
  });
}

/** kubectl's name for a kind: `deployment.apps`, `service`. */
export function kindString(ref: Pick<ObjectRef, 'group' | 'kind'>): string {
  return ref.group ? `${ref.kind.toLowerCase()}.${ref.group}` : ref.kind.toLowerCase();
}

/** One document of `kubectl delete -f`. */
export async function deleteManifestObject(client: Client, file: string, r: Resolved): Promise<ApplyResult> {
  if (!r.ref.ok) return { file, index: r.doc, ref: '', action: 'failed', message: r.ref.error, warnings: [] };
  const ref = r.ref.value;
    const name = `${kindString(ref)}/${ref.name}`;
  const res = await client.request({ verb: 'delete', group: ref.group, version: ref.version, resource: ref.resource, namespace: ref.namespace, name: ref.name, options: { propagationPolicy: 'Background' } });
  if (res.code >= 400) {
    const status = res.body as Status;
    return { file, index: r.doc, ref: name, action: 'failed', message: formatKubectlError(withSource(status, 'deleting', file)).trimEnd(), warnings: res.warnings, status, trace: res.trace };
  }
  const where = ref.namespace ? ` from ${ref.namespace} namespace` : '';
  return { file, index: r.doc, ref: name, action: 'deleted', message: `${kindString(ref)} "${ref.name}" deleted${where}`, warnings: res.warnings, trace: res.trace };
}
