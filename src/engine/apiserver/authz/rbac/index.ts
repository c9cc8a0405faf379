/**
 * RBAC authorization as kube-apiserver 1.35 does it. Wiring: `createRbacAuthorizer(reader)` (the
 * RBAC mode, also a RuleResolver for SelfSubjectRulesReview), `bootstrapPolicyObjects()` to
 * create at startup, `checkRoleWrite`/`checkBindingWrite` in the RBAC registries, and
 * `aggregateRulesFor` for the clusterrole-aggregation controller.
 */
export { RbacAuthorizer, createRbacAuthorizer } from './authorizer';
export { aggregateClusterRoles, aggregateRulesFor, rulesEqual } from './aggregation';
export { bootstrapPolicyObjects, nodeRules } from './bootstrap';
export { covers } from './covers';
export {
  bindingAuthorized,
  checkBindingWrite,
  checkRoleWrite,
  confirmNoEscalation,
  escalationAllowed,
  isOnlyMutatingGCFields,
  type BindingWrite,
  type EscalationContext,
  type RoleWrite,
} from './escalation';
export {
  accessReviewAttributes,
  accessReviewStatus,
  selfSubjectAccessReview,
  selfSubjectRulesReview,
  type NonResourceRule,
  type ResourceRule,
  type RuleResolver,
  type RulesForResult,
} from './reviews';
export { ruleAllows, rulesAllow } from './rule-match';
export type { PolicyRule, RoleRef, Subject } from './types';
