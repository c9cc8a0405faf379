/**
 * Self-subject reviews, what `kubectl auth can-i` and `kubectl auth can-i --list` ask
 * (pkg/registry/authorization/selfsubjectaccessreview and selfsubjectrulesreview).
 *
 * An access review runs the request's user through the authorizer chain with the attributes of
 * the review's spec. A rules review asks every authorizer that can enumerate rules (Node, RBAC)
 * what the user may do in a namespace; "incomplete" is set when one of them cannot say (the Node
 * authorizer for kubelets), and their errors become evaluationError.
 */
import { GoValue, Path, invalid } from '../../../api/field';
import { goQuote } from '../../../api/gofmt';
import { badRequestError, invalidError, type StatusError } from '../../../api/status';
import { isObject, type JsonObject, type KubeObject } from '../../../api/types';
import type { UserInfo } from '../../authn/user';
import type { Attributes, Authorizer, Decision } from '../types';
import { aggregateMessage } from './format';
import { setOwn } from '../../../api/own';

import type { NonResourceRule, ResourceRule } from '../../../api/generated/authorization-v1';

const AUTHORIZATION_GROUP = 'authorization.k8s.io';

export type { NonResourceRule, ResourceRule };

export interface RulesForResult {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  incomplete: boolean;
  /** Error texts; several are shown as one aggregate. */
  errors: string[];
}

/** authorizer.RuleResolver: an authorizer that can list what it allows. */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesForResult;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

// omitempty: empty lists are left out of the wire form.
function listField(out: JsonObject, key: string, xs: readonly string[] | undefined): void {
  if (xs && xs.length > 0) setOwn(out, key, [...xs]);
}

/** SelfSubjectRulesReview: the review kube-apiserver answers, or its BadRequest. */
export function selfSubjectRulesReview(user: UserInfo, review: KubeObject, resolvers: readonly RuleResolver[]): KubeObject | StatusError {
  const spec = isObject(review.spec) ? review.spec : {};
  const namespace = str(spec.namespace);
  if (namespace === '') return badRequestError('no namespace on request');
  const resourceRules: JsonObject[] = [];
  const nonResourceRules: JsonObject[] = [];
  const errors: string[] = [];
  let incomplete = false;
  for (const resolver of resolvers) {
    const r = resolver.rulesFor(user, namespace);
    incomplete ||= r.incomplete;
    errors.push(...r.errors);
    for (const rule of r.resourceRules) {
      const out: JsonObject = { verbs: [...rule.verbs] };
      listField(out, 'apiGroups', rule.apiGroups);
      listField(out, 'resources', rule.resources);
      listField(out, 'resourceNames', rule.resourceNames);
      resourceRules.push(out);
    }
    for (const rule of r.nonResourceRules) {
      const out: JsonObject = { verbs: [...rule.verbs] };
      listField(out, 'nonResourceURLs', rule.nonResourceURLs);
      nonResourceRules.push(out);
    }
  }
  const status: JsonObject = { resourceRules, nonResourceRules, incomplete };
  if (errors.length > 0) status.evaluationError = aggregateMessage(errors);
  return { apiVersion: review.apiVersion || `${AUTHORIZATION_GROUP}/v1`, kind: 'SelfSubjectRulesReview', metadata: {}, spec: {}, status };
}

/** %#v of the internal NonResourceAttributes, as the validation error prints it. */
function goNonResourceAttributes(v: JsonObject): GoValue {
  return new GoValue(`authorization.NonResourceAttributes{Path:${goQuote(str(v.path))}, Verb:${goQuote(str(v.verb))}}`);
}

/** ValidateSelfSubjectAccessReviewSpec's one-of check; the other field rules belong to validation. */
function validateSpec(spec: JsonObject): StatusError | undefined {
  const specPath = Path.root('spec');
  const kind = { group: AUTHORIZATION_GROUP, name: 'SelfSubjectAccessReview' };
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if (isObject(ra) && isObject(nra)) {
    const e = invalid(specPath.child('nonResourceAttributes'), goNonResourceAttributes(nra), 'cannot be specified in combination with resourceAttributes');
    return invalidError(kind, '', [e]);
  }
  if (!isObject(ra) && !isObject(nra)) {
    const e = invalid(specPath.child('resourceAttributes'), 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified');
    return invalidError(kind, '', [e]);
  }
  return undefined;
}

/**
 * ResourceAttributesFrom / NonResourceAttributesFrom. An empty version means every version
 * ("*"); of the selectors only rawSelector is carried (requirements are not evaluated here).
 */
export function accessReviewAttributes(user: UserInfo, spec: JsonObject): Attributes {
  const base = { user, path: '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
  const ra = spec.resourceAttributes;
  if (!isObject(ra)) {
    const nra = isObject(spec.nonResourceAttributes) ? spec.nonResourceAttributes : {};
    return { ...base, isResourceRequest: false, verb: str(nra.verb), path: str(nra.path) };
  }
  const raw = (v: unknown): string => (isObject(v) ? str(v.rawSelector) : '');
  const labelSelector = raw(ra.labelSelector);
  const fieldSelector = raw(ra.fieldSelector);
  return {
    ...base,
    isResourceRequest: true,
    verb: str(ra.verb),
    namespace: str(ra.namespace),
    apiGroup: str(ra.group),
    apiVersion: str(ra.version) || '*',
    resource: str(ra.resource),
    subresource: str(ra.subresource),
    name: str(ra.name),
    ...(labelSelector ? { labelSelector } : {}),
    ...(fieldSelector ? { fieldSelector } : {}),
  };
}

/** SubjectAccessReviewStatus of a decision (denied and reason omitted when empty). */
export function accessReviewStatus(d: Decision): JsonObject {
  const status: JsonObject = { allowed: d.decision === 'Allow' };
  if (d.decision === 'Deny') status.denied = true;
  if (d.reason) status.reason = d.reason;
  return status;
}

/** SelfSubjectAccessReview: the review as sent, with the chain's decision as its status. */
export async function selfSubjectAccessReview(user: UserInfo, review: KubeObject, authorizer: Authorizer): Promise<KubeObject | StatusError> {
  const spec = isObject(review.spec) ? review.spec : {};
  const invalidSpec = validateSpec(spec);
  if (invalidSpec) return invalidSpec;
  const decision = await authorizer.authorize(accessReviewAttributes(user, spec));
  return { ...review, status: accessReviewStatus(decision) };
}
