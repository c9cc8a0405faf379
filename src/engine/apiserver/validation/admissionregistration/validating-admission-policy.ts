/**
 * ValidatingAdmissionPolicy and its binding (pkg/apis/admissionregistration/validation). Every
 * CEL expression is compiled in kube-apiserver's environment (admission/policy/compile.ts) and
 * its compile error reported where kube-apiserver reports it, after the structural checks of the
 * same field.
 */
import { duplicate, forbidden, invalid, notSupported, Path, required, type ErrorList, type FieldError } from '../../../api/field';
import { compilePolicy } from '../../admission/policy/compile';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain, validatePathSegmentName } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { arr, obj, objs, semanticEqual, str, strs } from '../core/json';
import { validateConditions, validateLabelSelector, validateObjectMeta } from '../meta';
import { registerValidator } from '../registry';
import { validateMatchConditions } from './match-conditions';
import { validateMatchResources } from './rules';
import { supportedFailurePolicies } from './webhook-configuration';

const maxAuditAnnotations = 20;
const maxAuditAnnotationValueExpressionLength = 5 * 1024;
const supportedValidationPolicyReasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const validValidationActions = ['Audit', 'Deny', 'Warn'];
const celReserved = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const isCELIdentifier = (name: string): boolean => /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) && !celReserved.has(name);
const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

function validateParamKind(kind: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const apiVersion = str(kind['apiVersion']);
  if (apiVersion === '') {
    errs.push(required(fldPath.child('apiVersion'), ''));
  } else if ((apiVersion.match(/\//g) ?? []).length > 1) {
    errs.push(invalid(fldPath.child('apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  } else if (apiVersion !== '/') {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    if (group.length > 0) {
      const groupErrs = isDNS1123Subdomain(group);
      if (groupErrs.length > 0) errs.push(invalid(fldPath.child('apiVersion'), group, groupErrs.join(',')));
    }
    if (version.length === 0) errs.push(invalid(fldPath.child('apiVersion'), apiVersion, 'version must be specified'));
    else {
      const versionErrs = isDNS1035Label(version);
      if (versionErrs.length > 0) errs.push(invalid(fldPath.child('apiVersion'), version, versionErrs.join(',')));
    }
  } else {
    errs.push(invalid(fldPath.child('apiVersion'), apiVersion, 'version must be specified'));
  }
  const k = str(kind['kind']);
  if (k === '') errs.push(required(fldPath.child('kind'), ''));
  else {
    const kindErrs = isDNS1035Label(k.toLowerCase());
    if (kindErrs.length > 0) errs.push(invalid(fldPath.child('kind'), k, 'may have mixed case, but should otherwise match: ' + kindErrs.join(',')));
  }
  return errs;
}

type CompileErrorAt = (path: Path) => FieldError | undefined;

function validateVariable(v: Record<string, unknown>, fldPath: Path, compileError: CompileErrorAt): ErrorList {
  const errs: ErrorList = [];
  const name = str(v['name']);
  if (name.trim() === '') errs.push(required(fldPath.child('name'), 'name is not specified'));
  else if (!isCELIdentifier(name)) errs.push(invalid(fldPath.child('name'), name, 'name is not a valid CEL identifier'));
  if (str(v['expression']).trim() === '') errs.push(required(fldPath.child('expression'), 'expression is not specified'));
  else pushDefined(errs, compileError(fldPath.child('expression')));
  return errs;
}

function pushDefined(errs: ErrorList, e: FieldError | undefined): void {
  if (e) errs.push(e);
}

function validateValidation(v: Record<string, unknown>, fldPath: Path, compileError: CompileErrorAt): ErrorList {
  const errs: ErrorList = [];
  if (str(v['expression']).trim() === '') errs.push(required(fldPath.child('expression'), 'expression is not specified'));
  else pushDefined(errs, compileError(fldPath.child('expression')));
  const messageExpression = str(v['messageExpression']);
  if (messageExpression.length > 0 && messageExpression.trim() === '') {
    errs.push(invalid(fldPath.child('messageExpression'), messageExpression, 'must be non-empty if specified'));
  } else if (messageExpression.trim() !== '') pushDefined(errs, compileError(fldPath.child('messageExpression')));
  const message = str(v['message']);
  if (message.length > 0 && message.trim() === '') errs.push(invalid(fldPath.child('message'), message, 'message must be non-empty if specified'));
  else if (hasNewlines(message.trim())) errs.push(invalid(fldPath.child('message'), message, 'message must not contain line breaks'));
  const reason = v['reason'];
  if (typeof reason === 'string' && !supportedValidationPolicyReasons.includes(reason)) {
    errs.push(notSupported(fldPath.child('reason'), reason, supportedValidationPolicyReasons));
  }
  return errs;
}

function validateAuditAnnotation(policyName: string, a: Record<string, unknown>, fldPath: Path, compileError: CompileErrorAt): ErrorList {
  const errs: ErrorList = [];
  const key = str(a['key']);
  if (policyName.length > 0) {
    const qualified = `${policyName}/${key}`;
    for (const msg of isQualifiedName(qualified)) errs.push(invalid(fldPath.child('key'), qualified, msg));
  } else {
    errs.push(invalid(fldPath.child('key'), key, 'requires metadata.name be non-empty'));
  }
  const valueExpression = str(a['valueExpression']).trim();
  if (valueExpression.length === 0) errs.push(required(fldPath.child('valueExpression'), 'valueExpression is not specified'));
  else if (Buffer.byteLength(valueExpression) > maxAuditAnnotationValueExpressionLength) {
    errs.push(required(fldPath.child('valueExpression'), `must not exceed ${maxAuditAnnotationValueExpressionLength} bytes in length`));
  } else pushDefined(errs, compileError(fldPath.child('valueExpression')));
  return errs;
}

function validatePolicySpec(policyName: string, spec: Record<string, unknown>, ignoreMatchConditions: boolean, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const compiled = compilePolicy(spec, fldPath, { ignoreMatchConditionErrors: ignoreMatchConditions });
  const compileError: CompileErrorAt = (p) => compiled.errorAt.get(p.toString());
  const failurePolicy = spec['failurePolicy'];
  if (typeof failurePolicy !== 'string') errs.push(required(fldPath.child('failurePolicy'), ''));
  else if (!supportedFailurePolicies.includes(failurePolicy)) errs.push(notSupported(fldPath.child('failurePolicy'), failurePolicy, supportedFailurePolicies));
  const paramKind = obj(spec['paramKind']);
  if (paramKind) errs.push(...validateParamKind(paramKind, fldPath.child('paramKind')));
  const constraints = obj(spec['matchConstraints']);
  if (!constraints) errs.push(required(fldPath.child('matchConstraints'), ''));
  else {
    errs.push(...validateMatchResources(constraints, fldPath.child('matchConstraints')));
    // At least one resourceRule must be defined to provide type information.
    if (arr(constraints['resourceRules']).length === 0) errs.push(required(fldPath.child('matchConstraints', 'resourceRules'), ''));
  }
  if (!ignoreMatchConditions) {
    const mc = fldPath.child('matchConditions');
    errs.push(...validateMatchConditions(spec['matchConditions'], mc, (i) => compileError(mc.index(i).child('expression'))));
  }
  objs(spec['variables']).forEach((v, i) => errs.push(...validateVariable(v, fldPath.child('variables').index(i), compileError)));
  const validations = objs(spec['validations']);
  const auditAnnotations = objs(spec['auditAnnotations']);
  if (validations.length === 0 && auditAnnotations.length === 0) {
    errs.push(required(fldPath.child('validations'), 'validations or auditAnnotations must contain at least one item'));
    errs.push(required(fldPath.child('auditAnnotations'), 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(v, fldPath.child('validations').index(i), compileError)));
  if (auditAnnotations.length > maxAuditAnnotations) {
    errs.push(invalid(fldPath.child('auditAnnotations'), arr(spec['auditAnnotations']), `must not have more than ${maxAuditAnnotations} auditAnnotations`));
  }
  const keys = new Set<string>();
  auditAnnotations.forEach((a, i) => {
    const p = fldPath.child('auditAnnotations').index(i);
    errs.push(...validateAuditAnnotation(policyName, a, p, compileError));
    const key = str(a['key']);
    if (keys.has(key)) errs.push(duplicate(p.child('key'), key));
    keys.add(key);
  });
  return errs;
}

function validatePolicy(p: KubeObject, ignoreMatchConditions: boolean): ErrorList {
  return [
    ...validateObjectMeta(p.metadata, false, nameIsDNSSubdomain, Path.root('metadata')),
    ...validatePolicySpec(str(p.metadata.name), obj(p['spec']) ?? {}, ignoreMatchConditions, Path.root('spec')),
  ];
}

/** Match conditions are only re-checked when they or the parameter kind changed. */
function unchangedMatchConditions(p: KubeObject, old: KubeObject): boolean {
  const spec = obj(p['spec']) ?? {};
  const oldSpec = obj(old['spec']) ?? {};
  return semanticEqual(spec['paramKind'], oldSpec['paramKind']) && semanticEqual(spec['matchConditions'], oldSpec['matchConditions']);
}

function validatePolicyStatus(status: unknown, fldPath: Path): ErrorList {
  const s = obj(status) ?? {};
  const errs: ErrorList = [];
  const warnings = objs(obj(s['typeChecking'])?.['expressionWarnings']);
  warnings.forEach((w, i) => {
    const p = fldPath.child('typeChecking', 'expressionWarnings').index(i);
    if (str(w['warning']) === '') errs.push(required(p.child('warning'), ''));
    if (str(w['fieldRef']).trim() === '') errs.push(required(p.child('fieldRef'), ''));
  });
  return [...errs, ...validateConditions(s['conditions'], fldPath.child('conditions'))];
}

registerValidator('admissionregistration.k8s.io', 'ValidatingAdmissionPolicy', {
  create: (p) => validatePolicy(p, false),
  update: (p, old) => validatePolicy(p, unchangedMatchConditions(p, old)),
  updateStatus: (p) => validatePolicyStatus(p['status'], Path.root('status')),
});

function validateParamRef(ref: unknown, fldPath: Path): ErrorList {
  const r = obj(ref);
  if (!r) return [];
  const errs: ErrorList = [];
  const name = str(r['name']);
  const selector = obj(r['selector']);
  if (name.length > 0) {
    for (const msg of validatePathSegmentName(name, false)) errs.push(invalid(fldPath.child('name'), name, msg));
    if (selector) errs.push(forbidden(fldPath.child('name'), 'name and selector are mutually exclusive'));
  }
  if (selector) {
    errs.push(...validateLabelSelector(selector, { allowInvalidLabelValueInSelector: false }, fldPath.child('selector')));
    if (name.length > 0) errs.push(forbidden(fldPath.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (name.length === 0 && !selector) errs.push(required(fldPath, 'one of name or selector must be specified'));
  const action = str(r['parameterNotFoundAction']);
  if (action === '') errs.push(required(fldPath.child('parameterNotFoundAction'), ''));
  else if (action !== 'Deny' && action !== 'Allow') errs.push(notSupported(fldPath.child('parameterNotFoundAction'), action, ['Deny', 'Allow']));
  return errs;
}

function validateValidationActions(actions: string[], fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!validValidationActions.includes(a)) errs.push(notSupported(fldPath.index(i), a, validValidationActions));
    if (seen.has(a)) errs.push(duplicate(fldPath.index(i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(
      invalid(fldPath, actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'),
    );
  }
  if (seen.size === 0) errs.push(required(fldPath, 'at least one validation action is required'));
  return errs;
}

function validateBinding(b: KubeObject): ErrorList {
  const spec = obj(b['spec']) ?? {};
  const fldPath = Path.root('spec');
  const errs = validateObjectMeta(b.metadata, false, nameIsDNSSubdomain, Path.root('metadata'));
  const policyName = str(spec['policyName']);
  if (policyName === '') errs.push(required(fldPath.child('policyName'), ''));
  else for (const msg of nameIsDNSSubdomain(policyName, false)) errs.push(invalid(fldPath.child('policyName'), policyName, msg));
  errs.push(...validateParamRef(spec['paramRef'], fldPath.child('paramRef')));
  errs.push(...validateMatchResources(spec['matchResources'], fldPath.child('matchResources')));
  errs.push(...validateValidationActions(strs(spec['validationActions']), fldPath.child('validationActions')));
  return errs;
}

registerValidator('admissionregistration.k8s.io', 'ValidatingAdmissionPolicyBinding', {
  create: validateBinding,
  update: validateBinding,
});
