/**
 * The authorization contract (k8s.io/apiserver/pkg/authorization/authorizer). Authorizers are
 * pluggable: RBAC (authz/rbac/) in a real cluster, AlwaysAllow only in tests that ask for it.
 * An authorizer reads cluster state (roles, bindings) through the API server's ObjectReader,
 * which is why it is built by a factory once the server's caches exist.
 */
import type { UserInfo } from '../authn/user';
import type { ObjectReader } from '../storage/reader';

export interface Attributes {
  readonly user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection, impersonate, ... */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** For non-resource requests: the URL path ("/healthz"). */
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

export type DecisionKind = 'Allow' | 'Deny' | 'NoOpinion';

export interface Decision {
  readonly decision: DecisionKind;
  /**
   * Why: for an allow, the rule that allowed it (RBAC names the binding and role); for a deny or
   * no opinion, a reason appended to the Forbidden message when not empty.
   */
  readonly reason: string;
}

export interface Authorizer {
  authorize(attributes: Attributes): Decision | Promise<Decision>;
}

export type AuthorizerFactory = (reader: ObjectReader) => Authorizer;
