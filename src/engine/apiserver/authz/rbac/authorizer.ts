/**
 * The RBAC authorizer (plugin/pkg/auth/authorizer/rbac): allows a request when a rule of a role
 * bound to the user allows it, naming the binding in the reason as kube-apiserver's audit
 * annotation does; otherwise it has no opinion, with the roles it could not resolve as the reason
 * appended to the Forbidden message.
 */
import type { UserInfo } from '../../authn/user';
import type { ObjectReader } from '../../storage/reader';
import type { Attributes, Authorizer, Decision } from '../types';
import { aggregateMessage } from './format';
import { describeSource, rulesFor, visitRulesFor, type RbacState, type RuleSource } from './resolver';
import type { RuleResolver, RulesForResult } from './reviews';
import { ruleAllows } from './rule-match';
import { CachedRbacState } from './state';

export class RbacAuthorizer implements Authorizer, RuleResolver {
  constructor(private readonly state: RbacState) {}

  authorize(a: Attributes): Decision {
    let allowedBy: RuleSource | undefined;
    const errors: string[] = [];
    visitRulesFor(this.state, a.user, a.namespace, (source, rule, err) => {
      if (source && rule && ruleAllows(a, rule)) {
        allowedBy = source;
        return false;
      }
      if (err !== undefined) errors.push(err);
      return true;
    });
    if (allowedBy) return { decision: 'Allow', reason: `RBAC: allowed by ${describeSource(allowedBy)}` };
    return { decision: 'NoOpinion', reason: errors.length > 0 ? `RBAC: ${aggregateMessage(errors)}` : '' };
  }

  /** RBAC enumerates everything it grants, so its answer is never incomplete. */
  rulesFor(user: UserInfo, namespace: string): RulesForResult {
    const { rules, errors } = rulesFor(this.state, user, namespace);
    const result: RulesForResult = { resourceRules: [], nonResourceRules: [], incomplete: false, errors };
    for (const r of rules) {
      if ((r.resources ?? []).length > 0) {
        result.resourceRules.push({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames });
      }
      if ((r.nonResourceURLs ?? []).length > 0) result.nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
    }
    return result;
  }
}

/** --authorization-mode=RBAC: reads roles and bindings from the API server's watch cache. */
export function createRbacAuthorizer(reader: ObjectReader): RbacAuthorizer {
  return new RbacAuthorizer(new CachedRbacState(reader));
}
