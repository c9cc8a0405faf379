/**
 * The first look kube-apiserver's JSON serializer takes at a body (SimpleMetaFactory.Interpret):
 * apiVersion and kind, read with Go's standard encoding/json (field names matched without
 * regard to case), before the body is decoded into its Go type.
 */
import type { GroupVersionKind } from '../../api/types';
import type { SourceNode } from './source';
import { fail, ok, type Result } from '../../api/result';

const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

export function interpret(node: SourceNode): Result<GroupVersionKind> {
  let apiVersion = '';
  let kind = '';
  let typeError: string | undefined;
  if (node.kind === 'object') {
    for (const entry of node.entries) {
      const field = entry.key.toLowerCase() === 'apiversion' ? 'apiVersion' : entry.key.toLowerCase() === 'kind' ? 'kind' : undefined;
      if (!field) continue;
      const v = entry.value;
      if (v.kind === 'string') {
        if (field === 'kind') kind = v.value;
        else apiVersion = v.value;
      } else if (v.kind !== 'null') {
        typeError ??= `json: cannot unmarshal ${v.kind} into Go struct field .${field} of type string`;
      }
    }
  } else if (node.kind !== 'null') {
    typeError = `json: cannot unmarshal ${node.kind} into Go value of type ${FIND_KIND_TYPE}`;
  }
  if (typeError) return fail(`couldn't get version/kind; json parse error: ${typeError}`);
  if (apiVersion === '' || apiVersion === '/') return ok({ group: '', version: '', kind });
  const slashes = apiVersion.split('/').length - 1;
  if (slashes > 1) return fail(`unexpected GroupVersion string: ${apiVersion}`);
  const slash = apiVersion.indexOf('/');
  return ok(slash < 0 ? { group: '', version: apiVersion, kind } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind });
}

/** gvkWithDefaults: what the URL's kind fills in where the body says nothing. */
export function withDefaults(actual: GroupVersionKind, defaults: GroupVersionKind): GroupVersionKind {
  const out = { ...actual };
  if (out.kind === '') out.kind = defaults.kind;
  if (out.version === '' && out.group === '') {
    out.group = defaults.group;
    out.version = defaults.version;
  }
  if (out.version === '' && out.group === defaults.group) out.version = defaults.version;
  return out;
}
