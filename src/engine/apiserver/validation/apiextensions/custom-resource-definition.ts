/**
 * CustomResourceDefinition rules (apiextensions-apiserver pkg/apis/apiextensions/validation).
 * The apiserver validates the internal form, into which a v1 CRD converts by lifting schemas,
 * subresources and printer columns that are identical in every version to the top level -- so a
 * single-version CRD reports schema errors under spec.validation.openAPIV3Schema.
 */
import { forbidden, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../../../api/names';
import type { JsonObject, KubeObject, ObjectMeta } from '../../../api/types';
import { arr, obj, objs, semanticEqual, str, strs } from '../core/json';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { validateReviewVersions, validateWebhookService, validateWebhookURL } from '../admissionregistration/webhook-client';
import { schemaRuleErrors } from '../../customresources/cel-rules';
import { structuralOf } from '../../customresources/structural';
import { schemaHasDefaults, validateOpenAPISchema, validateStructural } from './schema';
import { own } from '../../../api/own';

type Obj = Record<string, unknown>;

const printerColumnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const acceptedConversionReviewVersions = ['v1', 'v1beta1'];
const allowedFieldsAtRootSchema = [
  'Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength',
  'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example',
  'XPreserveUnknownFields', 'XValidations',
];
const kubeAPIApprovedAnnotation = 'api-approved.kubernetes.io';

/** The internal spec fields the rules read: per-version parts identical everywhere move up. */
interface InternalSpec {
  versions: Obj[];
  validation: Obj | undefined;
  subresources: Obj | undefined;
  columns: Obj[] | undefined;
}

function toInternal(spec: Obj): InternalSpec {
  const versions = objs(spec['versions']).map((v) => ({ ...v }));
  if (versions.length === 0) return { versions, validation: undefined, subresources: undefined, columns: undefined };
  const lift = (field: string): boolean => versions.every((v) => semanticEqual(own(v, field), own(versions[0]!, field)));
  const first = versions[0]!;
  const validation = lift('schema') ? obj(first['schema']) : undefined;
  const subresources = lift('subresources') ? obj(first['subresources']) : undefined;
  const columns = lift('additionalPrinterColumns') && Array.isArray(first['additionalPrinterColumns']) ? [...objs(first['additionalPrinterColumns'])] : undefined;
  const liftedFields = [lift('schema') && 'schema', lift('subresources') && 'subresources', lift('additionalPrinterColumns') && 'additionalPrinterColumns'];
  for (const v of versions) for (const f of liftedFields) if (f) delete v[f];
  return { versions, validation, subresources, columns };
}

function validateNames(names: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  for (const f of ['plural', 'singular'] as const) {
    const v = str(names[f]);
    const msgs = isDNS1035Label(v);
    if (v.length > 0 && msgs.length > 0) errs.push(invalid(fldPath.child(f), v, msgs.join(',')));
  }
  for (const f of ['kind', 'listKind'] as const) {
    const v = str(names[f]);
    const msgs = isDNS1035Label(v.toLowerCase());
    if (v.length > 0 && msgs.length > 0) errs.push(invalid(fldPath.child(f), v, 'may have mixed case, but should otherwise match: ' + msgs.join(',')));
  }
  strs(names['shortNames']).forEach((s, i) => {
    const msgs = isDNS1035Label(s);
    if (msgs.length > 0) errs.push(invalid(fldPath.child('shortNames').index(i), s, msgs.join(',')));
  });
  const kind = str(names['kind']);
  if (kind.length > 0 && kind === str(names['listKind'])) errs.push(invalid(fldPath.child('listKind'), kind, 'kind and listKind may not be the same'));
  strs(names['categories']).forEach((c, i) => {
    const msgs = isDNS1035Label(c);
    if (msgs.length > 0) errs.push(invalid(fldPath.child('categories').index(i), c, msgs.join(',')));
  });
  return errs;
}

function validateSimpleJSONPath(s: string, fldPath: Path): ErrorList {
  if (s.length === 0) return [invalid(fldPath, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(fldPath, s, 'must be a simple json path starting with .')];
  return [];
}

function validateColumn(col: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (str(col['name']) === '') errs.push(required(fldPath.child('name'), ''));
  const type = str(col['type']);
  const typeDetail = `must be one of ${printerColumnTypes.join(',')}`;
  if (type === '') errs.push(required(fldPath.child('type'), typeDetail));
  else if (!printerColumnTypes.includes(type)) errs.push(invalid(fldPath.child('type'), type, typeDetail));
  const format = str(col['format']);
  if (format.length > 0 && !columnFormats.includes(format)) errs.push(invalid(fldPath.child('format'), format, `must be one of ${columnFormats.join(',')}`));
  // The internal field is named JSONPath, and so is the error path.
  const jsonPath = str(col['jsonPath']);
  if (jsonPath === '') errs.push(required(fldPath.child('JSONPath'), ''));
  else errs.push(...validateSimpleJSONPath(jsonPath, fldPath.child('JSONPath')));
  return errs;
}

function validateScalePath(value: string, under: string[], p: Path, detail: string): ErrorList {
  const errs = validateSimpleJSONPath(value, p);
  if (errs.length > 0) return errs;
  return under.some((prefix) => value.startsWith(prefix)) ? [] : [invalid(p, value, detail)];
}

function validateSubresources(sub: Obj | undefined, fldPath: Path): ErrorList {
  const scale = obj(sub?.['scale']);
  if (!scale) return [];
  const errs: ErrorList = [];
  const specPath = str(scale['specReplicasPath']);
  if (specPath === '') errs.push(required(fldPath.child('scale.specReplicasPath'), ''));
  else errs.push(...validateScalePath(specPath, ['.spec.'], fldPath.child('scale.specReplicasPath'), 'should be a json path under .spec'));
  const statusPath = str(scale['statusReplicasPath']);
  if (statusPath === '') errs.push(required(fldPath.child('scale.statusReplicasPath'), ''));
  else errs.push(...validateScalePath(statusPath, ['.status.'], fldPath.child('scale.statusReplicasPath'), 'should be a json path under .status'));
  const selectorPath = str(scale['labelSelectorPath']);
  if (selectorPath.length > 0) {
    errs.push(...validateScalePath(selectorPath, ['.spec.', '.status.'], fldPath.child('scale.labelSelectorPath'), 'should be a json path under either .spec or .status'));
  }
  return errs;
}

/** v1 schema keys and the internal JSONSchemaProps field each one fills. */
const internalFieldName = (key: string): string =>
  key === '$ref' ? 'Ref' : key === 'x-kubernetes-preserve-unknown-fields' ? 'XPreserveUnknownFields' : key === 'x-kubernetes-validations' ? 'XValidations' : key.startsWith('x-kubernetes-') ? 'X' + key.slice(13) : key[0]!.toUpperCase() + key.slice(1);

function validateValidation(validation: Obj | undefined, statusEnabled: boolean, fldPath: Path): ErrorList {
  const schema = obj(validation?.['openAPIV3Schema']);
  if (!schema) return [];
  const errs: ErrorList = [];
  const schemaPath = fldPath.child('openAPIV3Schema');
  if (statusEnabled) {
    for (const key of Object.keys(schema)) {
      const v = schema[key];
      if (v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0)) continue;
      if (key === 'type') {
        if (v !== 'object') {
          errs.push(invalid(fldPath.child('openAPIV3Schema.type'), str(v), 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!allowedFieldsAtRootSchema.includes(internalFieldName(key))) {
        errs.push(invalid(schemaPath, schema, `only [${allowedFieldsAtRootSchema.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  }
  if (schema['nullable'] === true) errs.push(forbidden(fldPath.child('openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));
  errs.push(...validateStructural(schema, schemaPath));
  errs.push(...validateOpenAPISchema(schema, { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false }, true, schemaPath));
  // CEL rules are compiled against the types of a structural schema only
  if (errs.length === 0) errs.push(...schemaRuleErrors(structuralOf(schema as JsonObject), schemaPath));
  return errs;
}

function validateConversionReviewVersions(versions: string[], requireRecognized: boolean, fldPath: Path): ErrorList {
  return validateReviewVersions(versions, acceptedConversionReviewVersions, requireRecognized, fldPath, '');
}

function validateConversion(conversion: Obj | undefined, requireRecognized: boolean, fldPath: Path): ErrorList {
  if (!conversion) return [];
  const strategy = str(conversion['strategy']);
  const errs: ErrorList = [];
  if (strategy === '') errs.push(required(fldPath.child('strategy'), ''));
  else if (strategy !== 'None' && strategy !== 'Webhook') errs.push(notSupported(fldPath.child('strategy'), strategy, ['None', 'Webhook']));
  const webhook = obj(conversion['webhook']);
  const cc = obj(webhook?.['clientConfig']);
  const reviewVersions = webhook ? strs(webhook['conversionReviewVersions']) : [];
  const ccPath = fldPath.child('webhookClientConfig');
  if (strategy === 'Webhook') {
    if (!cc) errs.push(required(ccPath, 'required when strategy is set to Webhook'));
    else {
      const url = cc['url'];
      const service = obj(cc['service']);
      if ((typeof url === 'string') === (service !== undefined)) errs.push(required(ccPath, 'exactly one of url or service is required'));
      else if (typeof url === 'string') errs.push(...validateWebhookURL(ccPath.child('url'), url, true));
      else if (service) {
        const path = service['path'];
        const port = typeof service['port'] === 'number' ? service['port'] : 443;
        errs.push(...validateWebhookService(ccPath.child('service'), str(service['name']), str(service['namespace']), typeof path === 'string' ? path : undefined, port));
      }
    }
    errs.push(...validateConversionReviewVersions(reviewVersions, requireRecognized, fldPath.child('conversionReviewVersions')));
  } else {
    if (cc) errs.push(forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0) errs.push(forbidden(fldPath.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}

const statusEnabled = (sub: unknown): boolean => obj(obj(sub)?.['status']) !== undefined;

function validateSpec(spec: Obj, requireRecognizedConversion: boolean, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const group = str(spec['group']);
  if (group === '') errs.push(required(fldPath.child('group'), ''));
  else {
    const msgs = isDNS1123Subdomain(group);
    if (msgs.length > 0) errs.push(invalid(fldPath.child('group'), group, msgs.join(',')));
    else if (group.split('.').length < 2) errs.push(invalid(fldPath.child('group'), group, 'should be a domain with at least one dot'));
  }
  const scope = str(spec['scope']);
  if (scope === '') errs.push(required(fldPath.child('scope'), ''));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errs.push(notSupported(fldPath.child('scope'), scope, ['Cluster', 'Namespaced']));

  const internal = toInternal(spec);
  const versionsPath = fldPath.child('versions');
  if (!obj(internal.validation?.['openAPIV3Schema'])) {
    internal.versions.forEach((v, i) => {
      if (!obj(obj(v['schema'])?.['openAPIV3Schema'])) errs.push(required(versionsPath.index(i).child('schema').child('openAPIV3Schema'), ''));
    });
  }
  const preserveUnknownFields = spec['preserveUnknownFields'] === true;
  const hasDefaults = [internal.validation, ...internal.versions.map((v) => v['schema'])].some((s) => schemaHasDefaults(obj(s)?.['openAPIV3Schema']));
  if (hasDefaults && preserveUnknownFields) errs.push(invalid(fldPath.child('preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));

  let storageCount = 0;
  const names = new Set<string>();
  let unique = true;
  internal.versions.forEach((v, i) => {
    const p = versionsPath.index(i);
    const name = str(v['name']);
    if (v['storage'] === true) storageCount++;
    if (names.has(name)) unique = false;
    names.add(name);
    const msgs = isDNS1035Label(name);
    if (msgs.length > 0) errs.push(invalid(p.child('name'), name, msgs.join(',')));
    const deprecationWarning = v['deprecationWarning'];
    if (typeof deprecationWarning === 'string') {
      if (v['deprecated'] !== true) errs.push(invalid(p.child('deprecationWarning'), deprecationWarning, 'can only be set for deprecated versions'));
      else if (deprecationWarning.length > 256) errs.push(invalid(p.child('deprecationWarning'), deprecationWarning, 'must be <= 256 characters long'));
      else if (deprecationWarning.length === 0) errs.push(invalid(p.child('deprecationWarning'), deprecationWarning, 'must not be an empty string'));
    }
    const versionStatus = statusEnabled(internal.subresources ?? v['subresources']);
    errs.push(...validateValidation(obj(v['schema']), versionStatus, p.child('schema')));
    errs.push(...validateSubresources(obj(v['subresources']), p.child('subresources')));
    objs(v['additionalPrinterColumns']).forEach((c, j) => errs.push(...validateColumn(c, p.child('additionalPrinterColumns').index(j))));
  });
  const versionsValue = arr(spec['versions']);
  if (!unique) errs.push(invalid(versionsPath, versionsValue, 'must contain unique version names'));
  if (storageCount !== 1) errs.push(invalid(versionsPath, versionsValue, 'must have exactly one version marked as storage version'));

  const crdNames = obj(spec['names']) ?? {};
  for (const f of ['plural', 'singular', 'kind', 'listKind'] as const) {
    if (str(crdNames[f]) === '') errs.push(required(fldPath.child('names', f), ''));
  }
  errs.push(...validateNames(crdNames, fldPath.child('names')));
  const anyStatus = internal.subresources ? statusEnabled(internal.subresources) : internal.versions.some((v) => statusEnabled(v['subresources']));
  errs.push(...validateValidation(internal.validation, anyStatus, fldPath.child('validation')));
  errs.push(...validateSubresources(internal.subresources, fldPath.child('subresources')));
  (internal.columns ?? []).forEach((c, i) => errs.push(...validateColumn(c, fldPath.child('additionalPrinterColumns').index(i))));

  const conversion = obj(spec['conversion']);
  const strategy = str(conversion?.['strategy']);
  if (conversion && strategy !== 'None' && (spec['preserveUnknownFields'] === undefined || preserveUnknownFields)) {
    errs.push(invalid(fldPath.child('conversion').child('strategy'), strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(conversion, requireRecognizedConversion, fldPath.child('conversion')));
  return errs;
}

function validateStoredVersions(stored: string[], versions: readonly Obj[], fldPath: Path): ErrorList {
  if (stored.length === 0) return [invalid(fldPath, stored, 'must have at least one stored version')];
  const errs: ErrorList = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    const name = str(v['name']);
    if (v['storage'] === true && !remaining.has(name)) errs.push(invalid(fldPath, stored, 'must have the storage version ' + name));
    remaining.delete(name);
  }
  for (const [v, i] of remaining) {
    errs.push(
      invalid(
        fldPath.index(i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

function validateAPIApproval(meta: ObjectMeta, group: string, oldMeta: ObjectMeta | undefined): ErrorList {
  const protectedGroup = group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
  if (!protectedGroup) return [];
  const state = (m: ObjectMeta | undefined): [string, string] => {
    const a = m?.annotations?.[kubeAPIApprovedAnnotation] ?? '';
    if (a === '') return ['missing', `protected groups must have approval annotation "${kubeAPIApprovedAnnotation}", see https://github.com/kubernetes/enhancements/pull/1111`];
    if (a.startsWith('unapproved')) return ['bypassed', ''];
    if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]+/.test(a)) return ['approved', ''];
    return [
      'invalid',
      `protected groups must have approval annotation "${kubeAPIApprovedAnnotation}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
    ];
  };
  const [now, reason] = state(meta);
  if (oldMeta && state(oldMeta)[0] === now) return [];
  const p = Path.root('metadata', 'annotations').key(kubeAPIApprovedAnnotation);
  if (now === 'missing') return [required(p, reason)];
  if (now === 'invalid') return [invalid(p, meta.annotations?.[kubeAPIApprovedAnnotation] ?? '', reason)];
  return [];
}

function storageVersions(spec: Obj): string[] {
  return objs(spec['versions']).filter((v) => v['storage'] === true).map((v) => str(v['name']));
}

function validateCreate(crd: KubeObject): ErrorList {
  const spec = obj(crd['spec']) ?? {};
  const names = obj(spec['names']) ?? {};
  const requiredName = `${str(names['plural'])}.${str(spec['group'])}`;
  const nameFn = (name: string, prefix: boolean): string[] => {
    const msgs = nameIsDNSSubdomain(name, prefix);
    return name === requiredName ? msgs : [...msgs, 'must be spec.names.plural+"."+spec.group'];
  };
  return [
    ...validateObjectMeta(crd.metadata, false, nameFn, Path.root('metadata')),
    ...validateSpec(spec, true, Path.root('spec')),
    // Creation resets the status to record the storage version as the only stored one.
    ...validateStoredVersions(storageVersions(spec), objs(spec['versions']), Path.root('status', 'storedVersions')),
    ...validateAPIApproval(crd.metadata, str(spec['group']), undefined),
    ...(spec['preserveUnknownFields'] === true
      ? [invalid(Path.root('spec', 'preserveUnknownFields'), true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')]
      : []),
  ];
}

const isEstablished = (crd: KubeObject): boolean =>
  objs(obj(crd['status'])?.['conditions']).some((c) => c['type'] === 'Established' && c['status'] === 'True');

function validateUpdate(crd: KubeObject, old: KubeObject): ErrorList {
  const spec = obj(crd['spec']) ?? {};
  const oldSpec = obj(old['spec']) ?? {};
  const oldReview = strs(obj(obj(oldSpec['conversion'])?.['webhook'])?.['conversionReviewVersions']);
  const requireRecognized = oldReview.length === 0 || oldReview.some((v) => acceptedConversionReviewVersions.includes(v));
  const errs = [...validateObjectMetaUpdate(crd.metadata, old.metadata, Path.root('metadata')), ...validateSpec(spec, requireRecognized, Path.root('spec'))];
  const names = obj(spec['names']) ?? {};
  const oldNames = obj(oldSpec['names']) ?? {};
  if (isEstablished(old)) {
    errs.push(...validateImmutableField(spec['scope'] ?? '', oldSpec['scope'] ?? '', Path.root('spec', 'scope')));
    errs.push(...validateImmutableField(names['kind'] ?? '', oldNames['kind'] ?? '', Path.root('spec', 'names', 'kind')));
  }
  errs.push(...validateImmutableField(spec['group'] ?? '', oldSpec['group'] ?? '', Path.root('spec', 'group')));
  errs.push(...validateImmutableField(names['plural'] ?? '', oldNames['plural'] ?? '', Path.root('spec', 'names', 'plural')));
  // The status is carried over from the stored object, plus any new storage version.
  const stored = strs(obj(old['status'])?.['storedVersions']);
  for (const v of storageVersions(spec)) if (!stored.includes(v)) stored.push(v);
  errs.push(...validateNames(obj(obj(old['status'])?.['acceptedNames']) ?? {}, Path.root('status', 'acceptedNames')));
  errs.push(...validateStoredVersions(stored, objs(spec['versions']), Path.root('status', 'storedVersions')));
  errs.push(...validateAPIApproval(crd.metadata, str(spec['group']), old.metadata));
  if (oldSpec['preserveUnknownFields'] !== true && spec['preserveUnknownFields'] === true) {
    errs.push(invalid(Path.root('spec', 'preserveUnknownFields'), true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  return errs;
}

registerValidator('apiextensions.k8s.io', 'CustomResourceDefinition', {
  create: validateCreate,
  update: validateUpdate,
  updateStatus: (crd, old) => [
    ...validateObjectMetaUpdate(crd.metadata, old.metadata, Path.root('metadata')),
    ...validateNames(obj(obj(crd['status'])?.['acceptedNames']) ?? {}, Path.root('status', 'acceptedNames')),
  ],
});
