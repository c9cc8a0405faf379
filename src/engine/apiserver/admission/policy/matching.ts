/**
 * Which requests a policy or binding applies to (k8s.io/apiserver/pkg/admission/plugin/policy/
 * matching and webhook/predicates): the namespace selector (cluster-scoped requests other than
 * namespaces always match), the object selector (the new or the old object), excludeResourceRules,
 * then resourceRules with operations, groups, versions, resources and subresources, resourceNames
 * and scope; with matchPolicy Equivalent (the default) a rule for another version of the same
 * resource matches too, and the request is evaluated as that version.
 */
import { labelSelectorAsSelector, type Labels, type LabelSelector } from '../../../api/labels';
import type { ResourceRegistry } from '../../../api/registry';
import type { KubeObject } from '../../../api/types';
import { arr, obj, objs, str, strs } from '../../validation/core/json';
import type { AdmissionAttributes } from '../types';

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface MatchResult {
  readonly matches: boolean;
  /** The resource and kind the request matched as (an equivalent version under Equivalent). */
  readonly resource?: GroupVersionResource;
  readonly kind?: GroupVersionKind;
  readonly error?: string;
}

const NO_MATCH: MatchResult = { matches: false };

export interface MatchInput {
  readonly a: AdmissionAttributes;
  /** The labels of the request's namespace; undefined when it does not exist. */
  namespaceLabels(name: string): Labels | undefined;
  readonly registry: ResourceRegistry;
}

/** The name of the namespace a request is in; for a Namespace itself, its own name. */
export function requestNamespace(a: AdmissionAttributes): string {
  return isNamespaceRequest(a) ? a.name : a.namespace;
}

const isNamespaceRequest = (a: AdmissionAttributes): boolean => a.group === '' && a.resource === 'namespaces';

function matchesNamespace(sel: unknown, input: MatchInput): { matches: boolean; error?: string } {
  const a = input.a;
  const ns = requestNamespace(a);
  if (ns === '' && !isNamespaceRequest(a)) return { matches: true };
  const parsed = labelSelectorAsSelector((obj(sel) ?? {}) as LabelSelector);
  if (!parsed.ok) return { matches: false, error: parsed.error };
  const selector = parsed.value;
  if (selector.empty()) return { matches: true };
  let labels = input.namespaceLabels(ns);
  // a namespace being created is matched by its own labels
  if (!labels && isNamespaceRequest(a) && a.operation === 'CREATE') labels = a.object?.metadata.labels ?? {};
  if (!labels) return { matches: false, error: `namespace "${ns}" not found` };
  return { matches: selector.matches(labels) };
}

function matchesObject(sel: unknown, a: AdmissionAttributes): { matches: boolean; error?: string } {
  const parsed = labelSelectorAsSelector((obj(sel) ?? {}) as LabelSelector);
  if (!parsed.ok) return { matches: false, error: parsed.error };
  const selector = parsed.value;
  if (selector.empty()) return { matches: true };
  const labelsOf = (o: KubeObject | undefined): Labels | undefined => (o ? (o.metadata.labels ?? {}) : undefined);
  const l1 = labelsOf(a.object);
  const l2 = labelsOf(a.oldObject);
  return { matches: (l1 !== undefined && selector.matches(l1)) || (l2 !== undefined && selector.matches(l2)) };
}

function splitResource(r: string): [string, string] {
  const slash = r.indexOf('/');
  return slash < 0 ? [r, ''] : [r.slice(0, slash), r.slice(slash + 1)];
}

/** webhook/predicates/rules.Matcher for one rule against the request seen as `gvr`. */
function ruleMatches(rule: Record<string, unknown>, a: AdmissionAttributes, gvr: GroupVersionResource): boolean {
  const ops = strs(rule['operations']);
  if (!ops.some((o) => o === '*' || o === a.operation)) return false;
  const matchAny = (list: string[], v: string): boolean => list.some((x) => x === '*' || x === v);
  if (!matchAny(strs(rule['apiGroups']), gvr.group)) return false;
  if (!matchAny(strs(rule['apiVersions']), gvr.version)) return false;
  const resourceOk = strs(rule['resources']).some((r) => {
    const [res, sub] = splitResource(r);
    return (res === '*' || res === gvr.resource) && (sub === '*' || sub === a.subresource);
  });
  if (!resourceOk) return false;
  const scope = str(rule['scope']) || '*';
  const ns = isNamespaceRequest(a);
  if (scope === 'Namespaced') return !ns && a.namespace !== '';
  if (scope === 'Cluster') return ns || a.namespace === '';
  return true;
}

function nameMatches(rule: Record<string, unknown>, a: AdmissionAttributes): boolean {
  const names = strs(rule['resourceNames']);
  return names.length === 0 || names.includes(a.name);
}

/** The other served versions of the request's resource (Equivalent matching). */
function equivalents(a: AdmissionAttributes, registry: ResourceRegistry): { gvr: GroupVersionResource; gvk: GroupVersionKind }[] {
  const out: { gvr: GroupVersionResource; gvk: GroupVersionKind }[] = [];
  for (const r of registry.all()) {
    if (r.group !== a.group || r.resource !== a.resource || r.version === a.version) continue;
    out.push({ gvr: { group: r.group, version: r.version, resource: r.resource }, gvk: { group: r.group, version: r.version, kind: r.kind } });
  }
  return out;
}

function matchesRules(rules: readonly Record<string, unknown>[], matchPolicy: string, input: MatchInput): MatchResult {
  const a = input.a;
  const gvr = { group: a.group, version: a.version, resource: a.resource };
  const gvk = { group: a.group, version: a.version, kind: a.kind };
  for (const rule of rules) if (ruleMatches(rule, a, gvr) && nameMatches(rule, a)) return { matches: true, resource: gvr, kind: gvk };
  if (matchPolicy === 'Exact') return NO_MATCH;
  for (const rule of rules) {
    for (const eq of equivalents(a, input.registry)) {
      if (ruleMatches(rule, a, eq.gvr) && nameMatches(rule, a)) return { matches: true, resource: eq.gvr, kind: eq.gvk };
    }
  }
  return NO_MATCH;
}

/** matching.Matcher.Matches for a policy's matchConstraints or a binding's matchResources. */
export function matchResources(resources: Record<string, unknown> | undefined, input: MatchInput): MatchResult {
  const a = input.a;
  const mr = resources ?? {};
  const ns = matchesNamespace(mr['namespaceSelector'], input);
  if (!ns.matches && ns.error === undefined) return NO_MATCH;
  const ob = matchesObject(mr['objectSelector'], a);
  if (!ob.matches && ob.error === undefined) return NO_MATCH;
  const matchPolicy = str(mr['matchPolicy']) || 'Equivalent';
  if (matchesRules(objs(mr['excludeResourceRules']), matchPolicy, input).matches) return NO_MATCH;
  const result = arr(mr['resourceRules']).length === 0
    ? { matches: true, resource: { group: a.group, version: a.version, resource: a.resource }, kind: { group: a.group, version: a.version, kind: a.kind } }
    : matchesRules(objs(mr['resourceRules']), matchPolicy, input);
  if (!result.matches) return NO_MATCH;
  if (ns.error !== undefined) return { matches: false, error: ns.error };
  if (ob.error !== undefined) return { matches: false, error: ob.error };
  return result;
}
