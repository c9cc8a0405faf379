/**
 * Authorizers in order (--authorization-mode=Node,RBAC): the first Allow or Deny decides; if all
 * have no opinion the request is denied with their reasons joined, as the union authorizer does.
 * kube-apiserver always puts the system:masters group first, ahead of the configured modes; like
 * upstream it allows with an empty reason (SubjectAccessReview status.reason stays empty).
 */
import { SYSTEM_MASTERS, type UserInfo } from '../authn/user';
import type { RuleResolver, RulesForResult } from './rbac/reviews';
import type { Attributes, Authorizer, Decision } from './types';

export function privilegedGroupAuthorizer(group = SYSTEM_MASTERS): Authorizer {
  return {
    authorize: (a) =>
      a.user.groups.includes(group) ? { decision: 'Allow', reason: '' } : NO_OPINION,
  };
}

const NO_OPINION: Decision = { decision: 'NoOpinion', reason: '' };

export function isRuleResolver(a: unknown): a is RuleResolver {
  return typeof a === 'object' && a !== null && typeof (a as Partial<RuleResolver>).rulesFor === 'function';
}

/**
 * The union also lists rules (unionAuthzRulesHandler): every member that can enumerate what it
 * allows contributes its rules, its incompleteness and its errors.
 */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer & RuleResolver {
  return {
    rulesFor(user: UserInfo, namespace: string): RulesForResult {
      const out: RulesForResult = { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] };
      for (const a of authorizers) {
        if (!isRuleResolver(a)) continue;
        const r = a.rulesFor(user, namespace);
        out.resourceRules.push(...r.resourceRules);
        out.nonResourceRules.push(...r.nonResourceRules);
        out.incomplete ||= r.incomplete;
        out.errors.push(...r.errors);
      }
      return out;
    },
    async authorize(a: Attributes): Promise<Decision> {
      const reasons: string[] = [];
      for (const authorizer of authorizers) {
        const d = await authorizer.authorize(a);
        if (d.decision !== 'NoOpinion') return d;
        if (d.reason) reasons.push(d.reason);
      }
      return { decision: 'NoOpinion', reason: reasons.join('\n') };
    },
  };
}
