/**
 * The resources kube-apiserver computes per request and never stores: SelfSubjectReview
 * (`kubectl auth whoami`), SelfSubjectAccessReview and SelfSubjectRulesReview (`kubectl auth
 * can-i [--list]`), SubjectAccessReview, LocalSubjectAccessReview and TokenReview. Each is a
 * create answered with 201 and the review, its status filled in.
 */
import { badRequestError, invalidError, StatusError } from '../../api/status';
import { Path, invalid } from '../../api/field';
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import type { UserInfo } from '../authn/user';
import { accessReviewAttributes, accessReviewStatus, selfSubjectAccessReview, selfSubjectRulesReview } from '../authz/rbac';
import { isRuleResolver } from '../authz/union';
import { decodeBody } from '../body';
import { authenticateToken } from '../authenticate';
import type { RequestContext } from '../context';
import type { ResourceInfo } from '../resources';
import { setOwn, table } from '../../api/own';

type Review = (ctx: RequestContext, user: UserInfo, review: KubeObject, info: ResourceInfo) => Promise<KubeObject | StatusError> | KubeObject | StatusError;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** authentication.k8s.io UserInfo (uid and extra left out when empty). */
function userInfo(u: UserInfo): JsonObject {
  const out: JsonObject = { username: u.username };
  if (u.uid) out.uid = u.uid;
  out.groups = [...u.groups];
  if (Object.keys(u.extra).length > 0) out.extra = Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]]));
  return out;
}

/** The user a SubjectAccessReview's spec describes. */
function specUser(spec: JsonObject): UserInfo {
  const extra: Record<string, string[]> = {};
  if (isObject(spec.extra)) for (const [k, v] of Object.entries(spec.extra)) setOwn(extra, k, strings(v));
  return { username: typeof spec.user === 'string' ? spec.user : '', uid: typeof spec.uid === 'string' ? spec.uid : '', groups: strings(spec.groups), extra };
}

const specOf = (review: KubeObject): JsonObject => (isObject(review.spec) ? review.spec : {});

async function subjectAccessReview(ctx: RequestContext, review: KubeObject, kind: string, namespace?: string): Promise<KubeObject | StatusError> {
  const spec = specOf(review);
  const user = specUser(spec);
  if (!user.username && user.groups.length === 0) {
    return invalidError({ group: 'authorization.k8s.io', name: kind }, '', [invalid(Path.root('spec').child('user'), user.username, '`spec.user` or `spec.groups` must be specified')]);
  }
  if (namespace !== undefined) {
    const ra = isObject(spec.resourceAttributes) ? spec.resourceAttributes : undefined;
    if (!ra) return invalidError({ group: 'authorization.k8s.io', name: kind }, '', [invalid(Path.root('spec').child('resourceAttributes'), 'null', 'must be specified')]);
    if (ra.namespace !== namespace) return badRequestError(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
  }
  const decision = await ctx.server.authorizer.authorize(accessReviewAttributes(user, spec));
  return { ...review, status: accessReviewStatus(decision) };
}

const REVIEWS = table<Review>({
  'authentication.k8s.io/selfsubjectreviews': (ctx, user, review) => ({
    apiVersion: review.apiVersion,
    kind: 'SelfSubjectReview',
    metadata: { creationTimestamp: ctx.server.clock.rfc3339(ctx.server.clock.now()) },
    status: { userInfo: userInfo(user) },
  }),
  'authentication.k8s.io/tokenreviews': async (ctx, _user, review) => {
    const spec = specOf(review);
    const found = typeof spec.token === 'string' ? await authenticateToken(ctx.server, spec.token) : undefined;
    const status: JsonObject = found ? { authenticated: true, user: userInfo(found) } : {};
    return { ...review, status };
  },
  'authorization.k8s.io/selfsubjectaccessreviews': (ctx, user, review) => selfSubjectAccessReview(user, review, ctx.server.authorizer),
  'authorization.k8s.io/selfsubjectrulesreviews': (ctx, user, review) => {
    const authorizer = ctx.server.authorizer;
    return selfSubjectRulesReview(user, review, isRuleResolver(authorizer) ? [authorizer] : []);
  },
  'authorization.k8s.io/subjectaccessreviews': (ctx, _user, review) => subjectAccessReview(ctx, review, 'SubjectAccessReview'),
  'authorization.k8s.io/localsubjectaccessreviews': (ctx, _user, review) => subjectAccessReview(ctx, review, 'LocalSubjectAccessReview', ctx.request.namespace ?? ''),
});

/** The computing handler of a review resource, or undefined for stored resources. */
export function reviewHandler(info: ResourceInfo): Review | undefined {
  return REVIEWS[`${info.group}/${info.resource}`];
}

export async function createReview(ctx: RequestContext, info: ResourceInfo, review: Review): Promise<{ code: number; body: JsonObject }> {
  const obj = decodeBody(ctx, { group: info.group, version: info.version, kind: info.kind });
  const result = await review(ctx, ctx.user!, obj, info);
  if (result instanceof StatusError) throw result;
  return { code: 201, body: result as JsonObject };
}
