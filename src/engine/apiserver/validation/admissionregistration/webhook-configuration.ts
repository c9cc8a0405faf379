/**
 * ValidatingWebhookConfiguration and MutatingWebhookConfiguration rules (pkg/apis/
 * admissionregistration/validation). Checks added over time (no side effects, a recognised
 * AdmissionReview version, unique names, strict selectors) are only enforced on update when the
 * stored object already met them, so older configurations stay writable.
 */
import { duplicate, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { isFullyQualifiedName, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { num, obj, objs, semanticEqual, str, strs } from '../core/json';
import { validateLabelSelector, validateObjectMeta } from '../meta';
import { registerValidator } from '../registry';
import { compileWebhookMatchConditions } from '../../admission/policy/compile';
import { validateMatchConditions } from './match-conditions';
import { supportedMatchPolicies, validateRuleWithOperations } from './rules';
import { validateReviewVersions, validateWebhookService, validateWebhookURL } from './webhook-client';

const acceptedAdmissionReviewVersions = ['v1', 'v1beta1'];
export const supportedFailurePolicies = ['Fail', 'Ignore'];
const supportedSideEffectClasses = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const noSideEffectClasses = ['None', 'NoneOnDryRun'];
const supportedReinvocationPolicies = ['IfNeeded', 'Never'];

interface Options {
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
}

const createOptions: Options = {
  ignoreMatchConditions: false,
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
};

function validateAdmissionReviewVersions(versions: string[], requireRecognized: boolean, fldPath: Path): ErrorList {
  return validateReviewVersions(versions, acceptedAdmissionReviewVersions, requireRecognized, fldPath, `must specify one of ${acceptedAdmissionReviewVersions.join(', ')}`);
}

function validateClientConfig(cc: Record<string, unknown>, fldPath: Path): ErrorList {
  const url = cc['url'];
  const service = obj(cc['service']);
  if ((typeof url === 'string') === (service !== undefined)) return [required(fldPath, 'exactly one of url or service is required')];
  if (typeof url === 'string') return validateWebhookURL(fldPath.child('url'), url, true);
  const s = service ?? {};
  const path = s['path'];
  return validateWebhookService(fldPath.child('service'), str(s['name']), str(s['namespace']), typeof path === 'string' ? path : undefined, num(s['port']) ?? 443);
}

function validateWebhook(hook: Record<string, unknown>, mutating: boolean, opts: Options, fldPath: Path): ErrorList {
  const errs = isFullyQualifiedName(fldPath.child('name'), str(hook['name']));
  objs(hook['rules']).forEach((r, i) => errs.push(...validateRuleWithOperations(r, fldPath.child('rules').index(i))));
  const failurePolicy = hook['failurePolicy'];
  if (typeof failurePolicy === 'string' && !supportedFailurePolicies.includes(failurePolicy)) {
    errs.push(notSupported(fldPath.child('failurePolicy'), failurePolicy, supportedFailurePolicies));
  }
  const matchPolicy = hook['matchPolicy'];
  if (typeof matchPolicy === 'string' && !supportedMatchPolicies.includes(matchPolicy)) {
    errs.push(notSupported(fldPath.child('matchPolicy'), matchPolicy, supportedMatchPolicies));
  }
  const allowedSideEffects = opts.requireNoSideEffects ? noSideEffectClasses : supportedSideEffectClasses;
  const sideEffects = hook['sideEffects'];
  if (typeof sideEffects !== 'string') errs.push(required(fldPath.child('sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(sideEffects)) errs.push(notSupported(fldPath.child('sideEffects'), sideEffects, allowedSideEffects));
  const timeout = num(hook['timeoutSeconds']);
  if (timeout !== undefined && (timeout > 30 || timeout < 1)) {
    errs.push(invalid(fldPath.child('timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  }
  const selectorOpts = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  for (const selector of ['namespaceSelector', 'objectSelector'] as const) {
    if (obj(hook[selector])) errs.push(...validateLabelSelector(hook[selector], selectorOpts, fldPath.child(selector)));
  }
  const reinvocation = hook['reinvocationPolicy'];
  if (mutating && typeof reinvocation === 'string' && !supportedReinvocationPolicies.includes(reinvocation)) {
    errs.push(notSupported(fldPath.child('reinvocationPolicy'), reinvocation, supportedReinvocationPolicies));
  }
  errs.push(...validateClientConfig(obj(hook['clientConfig']) ?? {}, fldPath.child('clientConfig')));
  if (!opts.ignoreMatchConditions) {
    const p = fldPath.child('matchConditions');
    errs.push(...validateMatchConditions(hook['matchConditions'], p, compileWebhookMatchConditions(hook['matchConditions'], p)));
  }
  return errs;
}

function validateConfiguration(c: KubeObject, mutating: boolean, opts: Options): ErrorList {
  const errs = validateObjectMeta(c.metadata, false, nameIsDNSSubdomain, Path.root('metadata'));
  const names = new Set<string>();
  objs(c['webhooks']).forEach((hook, i) => {
    const p = Path.root('webhooks').index(i);
    errs.push(...validateWebhook(hook, mutating, opts, p));
    errs.push(...validateAdmissionReviewVersions(strs(hook['admissionReviewVersions']), opts.requireRecognizedAdmissionReviewVersion, p.child('admissionReviewVersions')));
    const name = str(hook['name']);
    if (opts.requireUniqueWebhookNames && name.length > 0) {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

const selectorHasErrors = (sel: unknown): boolean =>
  obj(sel) !== undefined && validateLabelSelector(sel, { allowInvalidLabelValueInSelector: false }, Path.root('selector')).length > 0;

function updateOptions(c: KubeObject, old: KubeObject): Options {
  const hooks = objs(c['webhooks']);
  const oldHooks = objs(old['webhooks']);
  const names = oldHooks.map((h) => str(h['name']));
  return {
    ignoreMatchConditions: hooks.length === oldHooks.length && oldHooks.every((h, i) => semanticEqual(hooks[i]?.['matchConditions'], h['matchConditions'])),
    requireNoSideEffects: oldHooks.every((h) => noSideEffectClasses.includes(str(h['sideEffects']))),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((h) => {
      const versions = strs(h['admissionReviewVersions']);
      return versions.length === 0 || versions.some((v) => acceptedAdmissionReviewVersions.includes(v));
    }),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: oldHooks.some((h) => selectorHasErrors(h['namespaceSelector']) || selectorHasErrors(h['objectSelector'])),
  };
}

for (const [kind, mutating] of [
  ['ValidatingWebhookConfiguration', false],
  ['MutatingWebhookConfiguration', true],
] as const) {
  registerValidator('admissionregistration.k8s.io', kind, {
    create: (c) => validateConfiguration(c, mutating, createOptions),
    update: (c, old) => validateConfiguration(c, mutating, updateOptions(c, old)),
  });
}
