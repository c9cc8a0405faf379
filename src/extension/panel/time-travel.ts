/**
 * Time travel through etcd's MVCC history, the way a client does it: a LIST of the one object
 * (fieldSelector metadata.name=<name>) at resourceVersion=<rev> with resourceVersionMatch=Exact,
 * through the API server. When compaction has removed that revision, the API server answers
 * 410 Gone and the panel says so.
 */
import { stringify } from 'yaml';
import { escapeValue } from '../../engine/api/fieldselector';
import type { JsonObject } from '../../engine/api/types';
import type { Client } from '../../engine/client';
import type { GetRevisionMessage, ObjectAtRevision } from '../../protocol/panel';

export async function objectAtRevision(client: Client, ask: GetRevisionMessage, revision: number): Promise<ObjectAtRevision> {
  return (await readAtRevision(client, ask, revision)).answer;
}

/** The object at `revision` as the answer to the webview, and the object itself when found. */
export async function readAtRevision(client: Client, ask: Pick<GetRevisionMessage, 'group' | 'resource' | 'namespace' | 'name'>, revision: number): Promise<{ answer: ObjectAtRevision; object?: JsonObject }> {
  const answer = (a: ObjectAtRevision, object?: JsonObject) => ({ answer: a, ...(object ? { object } : {}) });
  if (revision < 1) return answer({ state: 'absent', revision });
  const info = client.server.registry.byGroupResource(ask.group, ask.resource);
  if (!info) return answer({ state: 'error', revision, code: 404, message: `the server doesn't have a resource type "${ask.resource}"` });
  const response = await client.request({
    verb: 'list',
    group: info.group,
    version: info.version,
    resource: info.resource,
    ...(ask.namespace ? { namespace: ask.namespace } : {}),
    options: { fieldSelector: `metadata.name=${escapeValue(ask.name)}`, resourceVersion: String(revision), resourceVersionMatch: 'Exact' },
  });
  if (response.code === 410) return answer({ state: 'compacted', revision, message: statusMessage(response.body) });
  if (response.code >= 400) return answer({ state: 'error', revision, code: response.code, message: statusMessage(response.body) });
  const items = response.body.items;
  const object = Array.isArray(items) ? items[0] : undefined;
  if (!isObject(object)) return answer({ state: 'absent', revision });
  return answer({ state: 'found', revision, yaml: objectYaml(object) }, object);
}

/** The object as YAML without managedFields (bookkeeping that changes on every write). */
export function objectYaml(object: JsonObject): string {
  const metadata = object.metadata;
  if (!isObject(metadata) || metadata.managedFields === undefined) return stringify(object);
  const { managedFields: _omitted, ...rest } = metadata;
  return stringify({ ...object, metadata: rest });
}

function statusMessage(body: JsonObject): string {
  return typeof body.message === 'string' ? body.message : JSON.stringify(body);
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
