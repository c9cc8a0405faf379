/**
 * Applying manifests the way `kubectl apply --server-side` does, reported the way a plain
 * `kubectl apply` reports (`deployment.apps/web created`, `configured`, `unchanged`), errors in
 * kubectl's words. Shared by the CLI and the extension: each document is one server-side apply
 * request (field manager `kubesim`) from the given user, so RBAC and admission see exactly
 * what they would see from kubectl.
 */
import { formatKubectlError, withSource } from './format';
import { noKindMatchMessage } from '../api/registry';
import type { Status } from '../api/status';
import { isObject, parseApiVersion, type JsonObject, type KubeObject } from '../api/types';
import type { Client, ClientRequest } from '../client';
import type { ResourceRegistry } from '../api/registry';
import { parseManifest, type FieldValidation, type ManifestDocument } from '../apiserver/decode';

export const FIELD_MANAGER = 'kubesim';

export type ApplyAction = 'created' | 'configured' | 'unchanged' | 'deleted' | 'failed';

export interface ApplyResult {
  file: string;
  index: number;
  /** `deployment.apps/web`, as kubectl names an object. */
  ref: string;
  action: ApplyAction;
  /** kubectl's output line: `deployment.apps/web created`, or its error text. */
  message: string;
  warnings: string[];
  object?: KubeObject;
  status?: Status;
  /** The trace record of the request. */
  trace?: number;
}

export interface ApplyOptions {
  /** The namespace for namespaced objects that name none (kubectl's -n). Default "default". */
  namespace?: string;
  dryRun?: boolean;
  force?: boolean;
  /** kubectl's --validate: Strict (default), Warn or Ignore. */
  fieldValidation?: FieldValidation;
}

/** kubectl's short reference to an object: lower-case kind, group, name. */
export function objectRef(kind: string, group: string, name: string): string {
  return `${kind.toLowerCase()}${group ? `.${group}` : ''}/${name}`;
}

export async function applyManifestText(client: Client, file: string, text: string, options: ApplyOptions = {}): Promise<ApplyResult[]> {
  const results: ApplyResult[] = [];
  for (const doc of parseManifest(text, file)) results.push(await applyDocument(client, doc, options));
  return results;
}

function failure(doc: ManifestDocument, ref: string, message: string, status?: Status): ApplyResult {
  return { file: doc.fileName, index: doc.index, ref, action: 'failed', message, warnings: [], status };
}

/** The server-side apply request of one document, or kubectl's failure when none can be sent. */
export type ApplyRequest =
  | { ok: true; ref: string; request: ClientRequest & { verb: 'patch'; name: string } }
  | { ok: false; result: ApplyResult };

/** What kubectl reads of a document before it maps it: its group, version, kind, name and namespace. */
export interface DocumentIdentity {
  group: string;
  version: string;
  kind: string;
  name: string;
  /** The document's own metadata.namespace, '' when it names none. */
  namespace: string;
}

export function documentIdentity(object: JsonObject): DocumentIdentity {
  const kind = typeof object.kind === 'string' ? object.kind : '';
  const meta = isObject(object.metadata) ? object.metadata : {};
  const { group, version } = parseApiVersion(typeof object.apiVersion === 'string' ? object.apiVersion : '');
  return { group, version, kind, name: typeof meta.name === 'string' ? meta.name : '', namespace: typeof meta.namespace === 'string' ? meta.namespace : '' };
}

/**
 * The request kubectl apply --server-side sends for a document (and the editor's Apply, and its
 * diagnostics in dry run): PATCH with the apply patch type, field manager kubesim, the field
 * validation asked for. Documents that cannot be sent (no such kind, no name) fail as kubectl
 * fails them, before any request.
 */
export function applyRequest(registry: ResourceRegistry, doc: ManifestDocument, options: ApplyOptions = {}): ApplyRequest {
  if (doc.errors.length > 0 || !doc.object) {
    return { ok: false, result: failure(doc, '', doc.errors.map((e) => `error: ${e.kubectl}`).join('\n')) };
  }
  const obj = doc.object as JsonObject;
  const { group, version, kind, name, namespace: ns } = documentIdentity(obj);
  const info = registry.byGvk(group, version, kind);
  const ref = objectRef(kind, group, name);
  if (!info) {
    const versions = registry.versionsOfKind(group, kind);
    const message = noKindMatchMessage(group, kind, versions.length > 0 ? versions : [version]);
    return { ok: false, result: failure(doc, ref, `error: resource mapping not found for name: "${name}" namespace: "${ns}" from "${doc.fileName}": ${message}\nensure CRDs are installed first`) };
  }
  if (!name) {
    const gv = `${info.group ? `${info.group}/` : ''}${info.version}`;
    return {
      ok: false,
      result: failure(doc, ref, `error: error when retrieving current configuration of:\nResource: "${gv}, Resource=${info.resource}", GroupVersionKind: "${gv}, Kind=${kind}"\nName: "", Namespace: ""\nfrom server for: "${doc.fileName}": resource name may not be empty`),
    };
  }
  const namespace = info.namespaced ? ns || options.namespace || 'default' : undefined;
  const body = namespace && ns !== namespace ? { ...obj, metadata: { ...(isObject(obj.metadata) ? obj.metadata : {}), namespace } } : obj;
  return {
    ok: true,
    ref,
    request: {
      verb: 'patch',
      group: info.group,
      version: info.version,
      resource: info.resource,
      namespace,
      name,
      patchType: 'apply',
      body: { object: body },
      options: { fieldManager: FIELD_MANAGER, fieldValidation: options.fieldValidation ?? 'Strict', force: options.force, dryRun: options.dryRun },
    },
  };
}

/** kubectl's error text for a refused apply. */
export function applyErrorText(status: Status, file: string): string {
  return formatKubectlError(withSource(status, 'serverside-apply', file)).trimEnd();
}

export async function applyDocument(client: Client, doc: ManifestDocument, options: ApplyOptions = {}): Promise<ApplyResult> {
  const planned = applyRequest(client.server.registry, doc, options);
  if (!planned.ok) return planned.result;
  const { ref, request } = planned;
  const before = await client.request({ verb: 'get', group: request.group, version: request.version, resource: request.resource, namespace: request.namespace, name: request.name });
  const res = await client.request(request);
  if (res.code >= 400) {
    const status = res.body as Status;
    return { ...failure(doc, ref, applyErrorText(status, doc.fileName), status), warnings: res.warnings, trace: res.trace };
  }
  const object = res.body as KubeObject;
  const oldRv = before.code === 200 && isObject(before.body.metadata) ? before.body.metadata.resourceVersion : undefined;
  const action: ApplyAction = before.code !== 200 ? 'created' : oldRv === object.metadata.resourceVersion ? 'unchanged' : 'configured';
  const suffix = options.dryRun ? ' (server dry run)' : '';
  return { file: doc.fileName, index: doc.index, ref, action, message: `${ref} ${action}${suffix}`, warnings: res.warnings, object, trace: res.trace };
}
