/**
 * RBAC privilege-escalation prevention (pkg/registry/rbac/escalation_check.go, the policybased
 * storages of roles, clusterroles, rolebindings and clusterrolebindings, and
 * validation.ConfirmNoEscalation). A user may write a role only with rules it already holds, and
 * bind a role only if it holds the role's rules, unless it is in system:masters, may "escalate"
 * the role resource, or may "bind" the referenced role. The registries run these checks before
 * validation, on the object as sent (create) or as updated (update).
 */
import { goQuote } from '../../../api/gofmt';
import { forbiddenError, internalServerError, notFoundError, type StatusError } from '../../../api/status';
import { isObject, type JsonValue, type KubeObject } from '../../../api/types';
import { SYSTEM_MASTERS, type UserInfo } from '../../authn/user';
import type { ObjectReader } from '../../storage/reader';
import type { Attributes, Authorizer } from '../types';
import { compactRules } from './compact';
import { covers } from './covers';
import { aggregateMessage, byteOrder, compactString, goQuoteList } from './format';
import { roleReferenceRules, rulesFor, type RbacState } from './resolver';
import { StoredRbacState } from './state';
import { RBAC_GROUP, roleRefOf, rulesOf, type PolicyRule, type RoleRef } from './types';
import { own } from '../../../api/own';

export type RoleResource = 'roles' | 'clusterroles';
export type BindingResource = 'rolebindings' | 'clusterrolebindings';

/** A create (no old) or update of a Role or ClusterRole. */
export interface RoleWrite {
  readonly user: UserInfo;
  readonly resource: RoleResource;
  /** The request's namespace; '' for clusterroles. */
  readonly namespace: string;
  /** The name in the request URL ('' on create), which "escalate" is checked against. */
  readonly requestName: string;
  readonly obj: KubeObject;
  readonly old?: KubeObject;
}

/** A create (no old) or update of a RoleBinding or ClusterRoleBinding. */
export interface BindingWrite {
  readonly user: UserInfo;
  readonly resource: BindingResource;
  /** The request's namespace; '' for clusterrolebindings. */
  readonly namespace: string;
  readonly obj: KubeObject;
  readonly old?: KubeObject;
}

export interface EscalationContext {
  readonly reader: ObjectReader;
  readonly authorizer: Authorizer;
}

const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** EscalationAllowed: system:masters may grant anything (the API server's loopback is one). */
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(SYSTEM_MASTERS);
}

function resourceAttributes(user: UserInfo, verb: string, apiGroup: string, resource: string, namespace: string, name: string): Attributes {
  return { user, verb, isResourceRequest: true, path: '', namespace, apiGroup, apiVersion: '', resource, subresource: '', name };
}

/** RoleEscalationAuthorized: the user may "escalate" the role resource being written. */
export async function roleEscalationAuthorized(w: RoleWrite, authorizer: Authorizer): Promise<boolean> {
  const d = await authorizer.authorize(resourceAttributes(w.user, 'escalate', RBAC_GROUP, w.resource, w.namespace, w.requestName));
  return d.decision === 'Allow';
}

/**
 * BindingAuthorized (`canBind`): the user may "bind" the referenced role, checked in the
 * binding's namespace ('' for a ClusterRoleBinding).
 */
export async function bindingAuthorized(user: UserInfo, ref: RoleRef, bindingNamespace: string, authorizer: Authorizer): Promise<boolean> {
  const resource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : undefined;
  if (!resource) return false;
  const d = await authorizer.authorize(resourceAttributes(user, 'bind', ref.apiGroup, resource, bindingNamespace, ref.name));
  return d.decision === 'Allow';
}

function noEscalationIn(state: RbacState, user: UserInfo, rules: readonly PolicyRule[], namespace: string): string | undefined {
  const held = rulesFor(state, user, namespace);
  const { covered, missing } = covers(held.rules, rules);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort(byteOrder);
  let msg = `user ${goQuote(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  if (held.errors.length > 0) msg += `; resolution errors: [${aggregateMessage(held.errors)}]`;
  return msg;
}

/**
 * ConfirmNoEscalation: undefined if the user's rules in the namespace cover `rules`, otherwise
 * kube-apiserver's error text, which the registries wrap in a Forbidden error.
 */
export async function confirmNoEscalation(user: UserInfo, rules: readonly PolicyRule[], namespace: string, reader: ObjectReader): Promise<string | undefined> {
  return noEscalationIn(await StoredRbacState.load(reader, namespace), user, rules, namespace);
}

const hasAggregationRule = (role: KubeObject): boolean =>
  isObject(role.aggregationRule) && Array.isArray(role.aggregationRule.clusterRoleSelectors) && role.aggregationRule.clusterRoleSelectors.length > 0;

/** The Role/ClusterRole registry's check; undefined when the write may proceed. */
export async function checkRoleWrite(w: RoleWrite, ctx: EscalationContext): Promise<StatusError | undefined> {
  if (escalationAllowed(w.user) || (await roleEscalationAuthorized(w, ctx.authorizer))) return undefined;
  if (w.old && isOnlyMutatingGCFields(w.obj, w.old)) return undefined;
  const resource = { group: RBAC_GROUP, name: w.resource };
  const name = w.obj.metadata.name ?? '';
  const state = await StoredRbacState.load(ctx.reader, w.namespace);
  const err = noEscalationIn(state, w.user, rulesOf(w.obj), w.namespace);
  if (err) return forbiddenError(resource, name, err);
  // An aggregation rule can gather any rules and keeps a role from being tightened.
  if (w.resource === 'clusterroles' && (hasAggregationRule(w.obj) || (w.old !== undefined && hasAggregationRule(w.old)))) {
    if (noEscalationIn(state, w.user, FULL_AUTHORITY, w.namespace)) {
      return forbiddenError(resource, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  }
  return undefined;
}

/** The RoleBinding/ClusterRoleBinding registry's check; undefined when the write may proceed. */
export async function checkBindingWrite(w: BindingWrite, ctx: EscalationContext): Promise<StatusError | undefined> {
  if (escalationAllowed(w.user)) return undefined;
  if (w.old && isOnlyMutatingGCFields(w.obj, w.old)) return undefined;
  const ref = roleRefOf(w.obj);
  if (await bindingAuthorized(w.user, ref, w.namespace, ctx.authorizer)) return undefined;
  const state = await StoredRbacState.load(ctx.reader, w.namespace);
  const resolved = roleReferenceRules(state, ref, w.namespace);
  if (!resolved.ok) {
    if (ref.kind === 'ClusterRole') return notFoundError({ group: RBAC_GROUP, name: 'clusterroles' }, ref.name);
    if (ref.kind === 'Role') return notFoundError({ group: RBAC_GROUP, name: 'roles' }, ref.name);
    return internalServerError(resolved.error);
  }
  const err = noEscalationIn(state, w.user, resolved.value, w.namespace);
  return err ? forbiddenError({ group: RBAC_GROUP, name: w.resource }, w.obj.metadata.name ?? '', err) : undefined;
}

/**
 * IsOnlyMutatingGCFields: the update changes nothing but ownerReferences and finalizers (and
 * selfLink and managedFields), which the garbage collector must be able to change on any role.
 */
export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject): boolean {
  const { ownerReferences, finalizers, selfLink, managedFields } = old.metadata;
  const copied = { ...obj, metadata: { ...obj.metadata, ownerReferences, finalizers, selfLink, managedFields } };
  return semanticEqual(copied as JsonValue, old as JsonValue);
}

// Go zero values: an absent field, null, "", 0, false and empty lists and maps all decode alike.
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.values(v).every(isZero);
}

/** equality.Semantic.DeepEqual on the wire form, where missing and empty are the same. */
function semanticEqual(a: unknown, b: unknown): boolean {
  if (isZero(a) && isZero(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(own(a, k), own(b, k))) return false;
    return true;
  }
  return a === b;
}
