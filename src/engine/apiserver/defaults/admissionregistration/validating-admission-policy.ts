/**
 * ValidatingAdmissionPolicy and its binding: a policy fails closed by default; match resources,
 * where given, get the common matching defaults and all-scope rules. paramRef's
 * parameterNotFoundAction is required in v1 and not defaulted.
 */
import type { JsonObject } from '../../../api/types';
import { defaultNil, jsonDefaulter, objectAt, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultMatching, defaultRules } from './match';

const group = 'admissionregistration.k8s.io';

function defaultMatchResources(holder: JsonObject, key: string): void {
  const match = objectAt(holder, key);
  if (!match) return;
  defaultMatching(match);
  defaultRules(match, 'resourceRules');
  defaultRules(match, 'excludeResourceRules');
}

export function defaultValidatingAdmissionPolicy(policy: JsonObject): void {
  const spec = structAt(policy, 'spec');
  if (!spec) return;
  defaultNil(spec, 'failurePolicy', 'Fail');
  defaultMatchResources(spec, 'matchConstraints');
}

export function defaultValidatingAdmissionPolicyBinding(binding: JsonObject): void {
  const spec = objectAt(binding, 'spec');
  if (spec) defaultMatchResources(spec, 'matchResources');
}

registerDefaulter(group, 'ValidatingAdmissionPolicy', jsonDefaulter(defaultValidatingAdmissionPolicy));
registerDefaulter(group, 'ValidatingAdmissionPolicyBinding', jsonDefaulter(defaultValidatingAdmissionPolicyBinding));
