/**
 * ObjectMeta rules of k8s.io/apimachinery/pkg/api/validation/objectmeta.go (release-1.35): what
 * every kind's validator runs on metadata at create and update.
 */
import { forbidden, invalid, required, tooLong, type ErrorList, type Path } from '../../../api/field';
import { goQuote } from '../../../api/gofmt';
import { isQualifiedName, validateNamespaceName, type NameValidator } from '../../../api/names';
import type { ObjectMeta } from '../../../api/types';
import { validateImmutableField, validateNonnegativeField } from './generic';
import { asArray, asObject, asString, stringEntries } from './json';
import { validateLabels } from './labels';
import { validateManagedFields } from './managedfields';

export const totalAnnotationSizeLimitB = 256 * 1024;

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');
const asNumber = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** ValidateAnnotations: keys are qualified names (case-insensitively); 256 KiB in total. */
export function validateAnnotations(annotations: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  let total = 0;
  for (const [k, v] of stringEntries(annotations)) {
    errs.push(...isQualifiedName(k.toLowerCase()).map((msg) => invalid(fldPath, k, msg).withOrigin('format=k8s-label-key')));
    total += byteLength(k) + byteLength(v);
  }
  if (total > totalAnnotationSizeLimitB) errs.push(tooLong(fldPath, totalAnnotationSizeLimitB));
  return errs;
}

/** An owner reference as encoding/json prints the Go struct: fields in declaration order. */
function ownerReferenceJson(ref: Record<string, unknown>): Map<string, unknown> {
  const m = new Map<string, unknown>([
    ['apiVersion', asString(ref['apiVersion'])],
    ['kind', asString(ref['kind'])],
    ['name', asString(ref['name'])],
    ['uid', asString(ref['uid'])],
  ]);
  if (typeof ref['controller'] === 'boolean') m.set('controller', ref['controller']);
  if (typeof ref['blockOwnerDeletion'] === 'boolean') m.set('blockOwnerDeletion', ref['blockOwnerDeletion']);
  return m;
}

/** schema.FromAPIVersionAndKind: an unparsable apiVersion leaves group and version empty. */
function groupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: '', version: '' };
}

function validateOwnerReference(ref: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const apiVersion = asString(ref['apiVersion']);
  const kind = asString(ref['kind']);
  const gv = groupVersion(apiVersion);
  if (gv.version.length === 0) errs.push(invalid(fldPath.child('apiVersion'), apiVersion, 'version must not be empty'));
  if (kind.length === 0) errs.push(invalid(fldPath.child('kind'), kind, 'must not be empty'));
  if (asString(ref['name']).length === 0) errs.push(invalid(fldPath.child('name'), asString(ref['name']), 'must not be empty'));
  if (asString(ref['uid']).length === 0) errs.push(invalid(fldPath.child('uid'), asString(ref['uid']), 'must not be empty'));
  // Events may not own anything (BannedOwners).
  if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
    errs.push(invalid(fldPath, ownerReferenceJson(ref), '/v1, Kind=Event is disallowed from being an owner'));
  }
  return errs;
}

/** ValidateOwnerReferences: each reference complete, at most one controller. */
export function validateOwnerReferences(ownerReferences: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const refs = asArray(ownerReferences).map((r) => asObject(r) ?? {});
  let firstController = '';
  for (const ref of refs) {
    errs.push(...validateOwnerReference(ref, fldPath));
    if (ref['controller'] === true) {
      const current = `${asString(ref['kind'])}/${asString(ref['name'])}`;
      if (firstController !== '') {
        errs.push(
          invalid(
            fldPath,
            refs.map(ownerReferenceJson),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

export function validateFinalizerName(name: string, fldPath: Path): ErrorList {
  return isQualifiedName(name).map((msg) => invalid(fldPath, name, msg));
}

/** ValidateFinalizers: qualified names, and not both orphan and foregroundDeletion. */
export function validateFinalizers(finalizers: unknown, fldPath: Path): ErrorList {
  const list = asArray(finalizers).map(asString);
  const errs = list.flatMap((f) => validateFinalizerName(f, fldPath));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(invalid(fldPath, list, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/** ValidateNoNewFinalizers: once deletion started, finalizers may only be removed. */
export function validateNoNewFinalizers(newFinalizers: unknown, oldFinalizers: unknown, fldPath: Path): ErrorList {
  const old = new Set(asArray(oldFinalizers).map(asString));
  const extra = [...new Set(asArray(newFinalizers).map(asString))].filter((f) => !old.has(f)).sort();
  if (extra.length === 0) return [];
  const goList = `[]string{${extra.map(goQuote).join(', ')}}`;
  return [forbidden(fldPath, `no new finalizers can be added if the object is being deleted, found new finalizers ${goList}`)];
}

/**
 * ValidateObjectMeta: name (or generateName) by the kind's name rule, namespace present for
 * namespaced kinds and absent otherwise, then the common metadata rules.
 */
export function validateObjectMeta(meta: ObjectMeta | undefined, requiresNamespace: boolean, nameFn: NameValidator, fldPath: Path): ErrorList {
  const m: Record<string, unknown> = meta ?? {};
  const errs: ErrorList = [];
  const generateName = asString(m['generateName']);
  const name = asString(m['name']);
  if (generateName.length > 0) {
    errs.push(...nameFn(generateName, true).map((msg) => invalid(fldPath.child('generateName'), generateName, msg)));
  }
  if (name.length === 0) errs.push(required(fldPath.child('name'), 'name or generateName is required'));
  else errs.push(...nameFn(name, false).map((msg) => invalid(fldPath.child('name'), name, msg)));

  const namespace = asString(m['namespace']);
  if (requiresNamespace) {
    if (namespace.length === 0) errs.push(required(fldPath.child('namespace'), ''));
    else errs.push(...validateNamespaceName(namespace, false).map((msg) => invalid(fldPath.child('namespace'), namespace, msg)));
  } else if (namespace.length !== 0) {
    errs.push(forbidden(fldPath.child('namespace'), 'not allowed on this type'));
  }
  errs.push(...validateNonnegativeField(asNumber(m['generation']), fldPath.child('generation')));
  errs.push(...validateLabels(m['labels'], fldPath.child('labels')));
  errs.push(...validateAnnotations(m['annotations'], fldPath.child('annotations')));
  errs.push(...validateOwnerReferences(m['ownerReferences'], fldPath.child('ownerReferences')));
  errs.push(...validateFinalizers(m['finalizers'], fldPath.child('finalizers')));
  errs.push(...validateManagedFields(m['managedFields'], fldPath.child('managedFields')));
  return errs;
}

/**
 * ValidateObjectMetaUpdate: identity and timestamps immutable, resourceVersion required,
 * generation never decremented, no new finalizers while deleting, plus the content rules.
 */
export function validateObjectMetaUpdate(newMeta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined, fldPath: Path): ErrorList {
  const n: Record<string, unknown> = newMeta ?? {};
  const o: Record<string, unknown> = oldMeta ?? {};
  const errs: ErrorList = [];
  if (o['deletionTimestamp'] !== undefined && o['deletionTimestamp'] !== null) {
    errs.push(...validateNoNewFinalizers(n['finalizers'], o['finalizers'], fldPath.child('finalizers')));
  }
  const resourceVersion = asString(n['resourceVersion']);
  if (resourceVersion.length === 0) errs.push(invalid(fldPath.child('resourceVersion'), resourceVersion, 'must be specified for an update'));
  const generation = asNumber(n['generation']);
  if (generation < asNumber(o['generation'])) errs.push(invalid(fldPath.child('generation'), generation, 'must not be decremented'));

  for (const f of ['name', 'namespace', 'uid'] as const) {
    errs.push(...validateImmutableField(asString(n[f]), asString(o[f]), fldPath.child(f)));
  }
  // Timestamps and the grace period print as JSON: null when unset.
  for (const f of ['creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const) {
    errs.push(...validateImmutableField(n[f] ?? null, o[f] ?? null, fldPath.child(f)));
  }
  errs.push(...validateLabels(n['labels'], fldPath.child('labels')));
  errs.push(...validateAnnotations(n['annotations'], fldPath.child('annotations')));
  errs.push(...validateOwnerReferences(n['ownerReferences'], fldPath.child('ownerReferences')));
  errs.push(...validateManagedFields(n['managedFields'], fldPath.child('managedFields')));
  return errs;
}
