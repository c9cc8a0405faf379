/**
 * A binding's parameters (generic.CollectParams): none without paramKind or paramRef; otherwise
 * the object named by paramRef.name or every object paramRef.selector selects, in paramRef's
 * namespace or the request's; no parameter with parameterNotFoundAction Deny is a
 * configuration error.
 */
import { labelSelectorAsSelector, type LabelSelector } from '../../../api/labels';
import type { ResourceRegistry } from '../../../api/registry';
import type { KubeObject } from '../../../api/types';
import type { ObjectReader } from '../../storage/reader';
import { obj, str } from '../../validation/core/json';
import { fail, ok, type Result } from '../../../api/result';

/** [undefined] means one evaluation without params. */
export type Params = Result<(KubeObject | undefined)[]>;

function splitAPIVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

export function paramKindString(paramKind: Record<string, unknown>): string {
  const [group, version] = splitAPIVersion(str(paramKind['apiVersion']));
  return `${group ? group + '/' : ''}${version}, Kind=${str(paramKind['kind'])}`;
}

export function collectParams(paramKind: Record<string, unknown> | undefined, paramRef: Record<string, unknown> | undefined, namespace: string, registry: ResourceRegistry, reader: ObjectReader): Params {
  if (!paramKind || !paramRef) return ok([undefined]);
  const [group, version] = splitAPIVersion(str(paramKind['apiVersion']));
  const info = registry.byGvk(group, version, str(paramKind['kind']));
  if (!info) return fail(`paramKind kind \`${paramKindString(paramKind)}\` not known`);
  let ns = '';
  if (info.namespaced) {
    ns = str(paramRef['namespace']) || namespace;
    if (ns === '') return fail('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (str(paramRef['namespace']) !== '') {
    return fail('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  const all = reader.cached({ group: info.group, resource: info.resource }, ns);
  let params: KubeObject[];
  const name = str(paramRef['name']);
  const selector = obj(paramRef['selector']);
  if (name !== '') {
    if (selector) return fail('paramRef.name and paramRef.selector are mutually exclusive');
    params = all.filter((o) => o.metadata.name === name && (!info.namespaced || o.metadata.namespace === ns));
  } else if (selector) {
    const parsed = labelSelectorAsSelector(selector as LabelSelector);
    if (!parsed.ok) return parsed;
    const s = parsed.value;
    params = all.filter((o) => (!info.namespaced || o.metadata.namespace === ns) && s.matches(o.metadata.labels ?? {}));
  } else {
    return fail('one of name or selector must be provided');
  }
  if (params.length === 0 && str(paramRef['parameterNotFoundAction']) === 'Deny') return fail('no params found for policy binding with `Deny` parameterNotFoundAction');
  return ok(params);
}
