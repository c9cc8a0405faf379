/**
 * Where a live object's read-only document lives: kubesim:/<namespace>/<kind.group>/<name>.yaml
 * (cluster-scoped objects under _cluster), with the API coordinates in the query. The path reads
 * like kubectl's names; the tab shows <name>.yaml.
 */
import type { ObjectRef } from './manifest-objects';

export const LIVE_SCHEME = 'kubesim';
const CLUSTER = '_cluster';

export function liveUri(ref: ObjectRef): string {
  const kind = ref.group ? `${ref.kind.toLowerCase()}.${ref.group}` : ref.kind.toLowerCase();
  const query = new URLSearchParams({ group: ref.group, version: ref.version, resource: ref.resource, kind: ref.kind }).toString();
  return `${LIVE_SCHEME}:/${encodeURIComponent(ref.namespace ?? CLUSTER)}/${encodeURIComponent(kind)}/${encodeURIComponent(ref.name)}.yaml?${query}`;
}

/** The object a live document shows, from its URI's path and query; undefined if it names none. */
export function liveRef(path: string, query: string): ObjectRef | undefined {
  const m = /^\/([^/]+)\/[^/]+\/([^/]+)\.yaml$/.exec(path);
  const q = new URLSearchParams(query);
  const group = q.get('group');
  const version = q.get('version');
  const resource = q.get('resource');
  const kind = q.get('kind');
  if (!m || group === null || !version || !resource || !kind) return undefined;
  const namespace = decodeURIComponent(m[1]!);
  return { group, version, resource, kind, name: decodeURIComponent(m[2]!), ...(namespace === CLUSTER ? {} : { namespace }) };
}
