/**
 * Validating and mutating webhook defaults for admissionregistration.k8s.io/v1. sideEffects and
 * admissionReviewVersions are required in v1, so unlike v1beta1 they get no default.
 */
import type { JsonObject } from '../../../api/types';
import { defaultNil, jsonDefaulter, objectAt, objectsIn } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultMatching, defaultRules } from './match';

const group = 'admissionregistration.k8s.io';
const defaultTimeoutSeconds = 10;
const defaultServicePort = 443;

function defaultWebhook(webhook: JsonObject): void {
  defaultNil(webhook, 'failurePolicy', 'Fail');
  defaultMatching(webhook);
  defaultNil(webhook, 'timeoutSeconds', defaultTimeoutSeconds);
  defaultRules(webhook, 'rules');
  const clientConfig = objectAt(webhook, 'clientConfig');
  const service = clientConfig && objectAt(clientConfig, 'service');
  if (service) defaultNil(service, 'port', defaultServicePort);
}

export function defaultValidatingWebhookConfiguration(config: JsonObject): void {
  for (const webhook of objectsIn(config, 'webhooks')) defaultWebhook(webhook);
}

export function defaultMutatingWebhookConfiguration(config: JsonObject): void {
  for (const webhook of objectsIn(config, 'webhooks')) {
    defaultWebhook(webhook);
    defaultNil(webhook, 'reinvocationPolicy', 'Never');
  }
}

registerDefaulter(group, 'ValidatingWebhookConfiguration', jsonDefaulter(defaultValidatingWebhookConfiguration));
registerDefaulter(group, 'MutatingWebhookConfiguration', jsonDefaulter(defaultMutatingWebhookConfiguration));
