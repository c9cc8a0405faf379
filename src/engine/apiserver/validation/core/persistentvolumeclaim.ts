/** PersistentVolumeClaim: the claim spec (also used by ephemeral volumes), create, update, status. */
import { forbidden, GoValue, invalid, notSupported, Path as FieldPath, required, type ErrorList, type Path } from '../../../api/field';
import { isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain, validateNamespaceName } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { specDiff } from './diff';
import { clone, entries, isSet, obj, str, strs, semanticEqual, type Obj } from './json';
import {
  fieldImmutableErrorMsg,
  selectorHasErrors,
  validateImmutableField,
  validateLabelSelector,
  validateObjectMeta,
  validateObjectMetaUpdate,
  type LabelSelectorOptions,
} from './meta';
import { validatePositiveQuantityValue } from './numbers';
import { parseQuantity, quantitySyntaxError, zeroQuantity } from './quantity';
import { validateBasicResource, validateResourceQuantityValue } from './resources';
import { isNativeResource } from './resourcenames';

export const supportedAccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
export const supportedVolumeModes = ['Block', 'Filesystem'];

/** Access modes: known values, and ReadWriteOncePod alone. */
export function validateAccessModes(modes: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  let rwop = false;
  let other = false;
  for (const mode of strs(modes)) {
    if (!supportedAccessModes.includes(mode)) errs.push(notSupported(fldPath, mode, supportedAccessModes));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (supportedAccessModes.includes(mode)) other = true;
  }
  if (rwop && other) errs.push(forbidden(fldPath, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

export function validatePersistentVolumeClaimSpec(spec: Obj, fldPath: Path, opts: LabelSelectorOptions & { allowInvalidAPIGroup?: boolean }): ErrorList {
  const errs: ErrorList = [];
  if (strs(spec['accessModes']).length === 0) errs.push(required(fldPath.child('accessModes'), 'at least 1 access mode is required'));
  if (isSet(spec['selector'])) errs.push(...validateLabelSelector(spec['selector'], opts, fldPath.child('selector')));
  errs.push(...validateAccessModes(spec['accessModes'], fldPath.child('accessModes')));

  const storagePath = fldPath.child('resources').key('storage');
  const requests = obj(obj(spec['resources'])?.['requests']);
  const raw = requests?.['storage'];
  if (raw === undefined) {
    errs.push(required(storagePath, ''));
  } else {
    const syntax = quantitySyntaxError(raw, storagePath);
    const storage = parseQuantity(raw);
    if (syntax) errs.push(syntax);
    else if (storage) {
      const positive = validatePositiveQuantityValue(storage, storagePath);
      errs.push(...(positive.length > 0 ? positive : validateResourceQuantityValue('storage', storage, storagePath)));
    }
  }

  const scName = spec['storageClassName'];
  if (typeof scName === 'string' && scName.length > 0) {
    errs.push(...nameIsDNSSubdomain(scName, false).map((m) => invalid(fldPath.child('storageClassName'), scName, m)));
  }
  if (isSet(spec['volumeMode']) && !supportedVolumeModes.includes(str(spec['volumeMode']))) {
    errs.push(notSupported(fldPath.child('volumeMode'), str(spec['volumeMode']), supportedVolumeModes));
  }
  const dataSource = obj(spec['dataSource']);
  const dataSourceRef = obj(spec['dataSourceRef']);
  const allowInvalidAPIGroup = opts.allowInvalidAPIGroup ?? false;
  if (dataSource) errs.push(...validateDataSource(dataSource, fldPath.child('dataSource'), allowInvalidAPIGroup, false));
  if (dataSourceRef) errs.push(...validateDataSource(dataSourceRef, fldPath.child('dataSourceRef'), allowInvalidAPIGroup, true));
  const dataSourcePath = new GoValue('{}');
  if (dataSourceRef && str(dataSourceRef['namespace']).length > 0) {
    if (dataSource) errs.push(invalid(fldPath, dataSourcePath, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (dataSource && dataSourceRef) {
    const same = semanticEqual(dataSource['apiGroup'], dataSourceRef['apiGroup']) && str(dataSource['kind']) === str(dataSourceRef['kind']) && str(dataSource['name']) === str(dataSourceRef['name']);
    if (!same) errs.push(invalid(fldPath, dataSourcePath, 'must match dataSourceRef'));
  }
  const vac = spec['volumeAttributesClassName'];
  if (typeof vac === 'string' && vac.length > 0) {
    errs.push(...nameIsDNSSubdomain(vac, false).map((m) => invalid(fldPath.child('volumeAttributesClassName'), vac, m)));
  }
  return errs;
}

function validateDataSource(ds: Obj, fldPath: Path, allowInvalidAPIGroup: boolean, isRef: boolean): ErrorList {
  const errs: ErrorList = [];
  const kind = str(ds['kind']);
  if (str(ds['name']).length === 0) errs.push(required(fldPath.child('name'), ''));
  if (kind.length === 0) errs.push(required(fldPath.child('kind'), ''));
  const apiGroup = str(ds['apiGroup']);
  if (apiGroup.length === 0 && kind !== 'PersistentVolumeClaim') {
    errs.push(invalid(fldPath, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (apiGroup.length > 0 && !allowInvalidAPIGroup) {
    errs.push(...isDNS1123Subdomain(apiGroup).map((m) => invalid(fldPath.child('apiGroup'), apiGroup, m)));
  }
  const ns = str(ds['namespace']);
  if (isRef && ns.length > 0) errs.push(...validateNamespaceName(ns, false).map((m) => invalid(fldPath.child('namespace'), ns, m)));
  return errs;
}

function validatePersistentVolumeClaim(pvc: KubeObject, opts: LabelSelectorOptions & { allowInvalidAPIGroup?: boolean }): ErrorList {
  const errs = validateObjectMeta(pvc.metadata, true, nameIsDNSSubdomain, FieldPath.root('metadata'));
  errs.push(...validatePersistentVolumeClaimSpec(obj(pvc['spec']) ?? {}, FieldPath.root('spec'), opts));
  return errs;
}

const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

function updateOptions(old: KubeObject): LabelSelectorOptions & { allowInvalidAPIGroup: boolean } {
  const spec = obj(old['spec']) ?? {};
  return {
    allowInvalidAPIGroup: isSet(obj(spec['dataSource'])?.['apiGroup']) || isSet(obj(spec['dataSourceRef'])?.['apiGroup']),
    allowInvalidLabelValueInSelector: selectorHasErrors(spec['selector']),
  };
}

function validatePersistentVolumeClaimUpdate(pvc: KubeObject, old: KubeObject): ErrorList {
  const metaPath = FieldPath.root('metadata');
  const errs = validateObjectMetaUpdate(pvc.metadata, old.metadata, metaPath);
  errs.push(...validatePersistentVolumeClaim(pvc, updateOptions(old)));
  const newSpec = obj(pvc['spec']) ?? {};
  const oldSpec = obj(old['spec']) ?? {};
  const newClone = clone(newSpec);
  const oldClone = clone(oldSpec);
  const newAnn = pvc.metadata.annotations ?? {};
  const oldAnn = old.metadata.annotations ?? {};

  // The volume binder sets volumeName once.
  if (str(oldSpec['volumeName']).length === 0) oldClone['volumeName'] = newClone['volumeName'];

  const oldSc = oldAnn[betaStorageClassAnnotation];
  const newScAnn = newAnn[betaStorageClassAnnotation];
  const upgradeFromAnnotation =
    oldSc !== undefined && !isSet(oldSpec['storageClassName']) && typeof newSpec['storageClassName'] === 'string' && newSpec['storageClassName'] === oldSc && (newScAnn === undefined || newScAnn === oldSc);
  if (upgradeFromAnnotation) {
    delete newClone['storageClassName'];
  } else {
    if ((newScAnn ?? '') !== (oldSc ?? '')) {
      errs.push(invalid(metaPath.child('annotations', betaStorageClassAnnotation), newScAnn ?? '', fieldImmutableErrorMsg));
    }
    // Setting a class on a claim that had none is allowed when it agrees with the old annotation.
    if (typeof newSpec['storageClassName'] === 'string' && !isSet(oldSpec['storageClassName']) && (oldSc === undefined || newSpec['storageClassName'] === oldSc)) {
      delete newClone['storageClassName'];
    }
  }

  const bound = str(obj(pvc['status'])?.['phase']) === 'Bound';
  const newRequests = obj(obj(newClone['resources'])?.['requests']);
  if (bound && newRequests) newRequests['storage'] = obj(obj(oldSpec['resources'])?.['requests'])?.['storage'];
  if (bound && isSet(newClone['volumeAttributesClassName'])) newClone['volumeAttributesClassName'] = oldClone['volumeAttributesClassName'];

  const sameQuantity = (a: unknown, b: unknown): boolean | undefined => {
    const qa = parseQuantity(a);
    const qb = parseQuantity(b);
    return qa && qb ? qa.cmp(qb) === 0 : undefined;
  };
  if (!semanticEqual(newClone, oldClone, sameQuantity)) {
    errs.push(
      forbidden(
        FieldPath.root('spec'),
        `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${specDiff(oldClone, newClone)}`,
      ),
    );
  }

  const storageOf = (spec: Obj) => parseQuantity(obj(obj(spec['resources'])?.['requests'])?.['storage']) ?? zeroQuantity;
  const newSize = storageOf(newSpec);
  const oldSize = storageOf(oldSpec);
  const statusSize = parseQuantity(obj(obj(old['status'])?.['capacity'])?.['storage']) ?? zeroQuantity;
  // RecoverVolumeExpansionFailure is GA: a claim may shrink back, but not to its actual size or below.
  if (newSize.cmp(oldSize) < 0 && newSize.cmp(statusSize) <= 0) {
    errs.push(forbidden(FieldPath.root('spec', 'resources', 'requests', 'storage'), 'field can not be less than status.capacity'));
  }

  errs.push(...validateImmutableField(newSpec['volumeMode'], oldSpec['volumeMode'], FieldPath.root('volumeMode')));

  if (isSet(oldSpec['volumeAttributesClassName']) && !semanticEqual(oldSpec['volumeAttributesClassName'], newSpec['volumeAttributesClassName'])) {
    const path = FieldPath.root('spec', 'volumeAttributesClassName');
    if (!isSet(newSpec['volumeAttributesClassName'])) errs.push(forbidden(path, 'update from non-nil value to nil is forbidden'));
    else if (str(newSpec['volumeAttributesClassName']).length === 0) errs.push(forbidden(path, 'update from non-nil value to an empty string is forbidden'));
  }
  return errs;
}

const resizeStatuses = ['ControllerResizeInProgress', 'ControllerResizeInfeasible', 'NodeResizeInProgress', 'NodeResizeInfeasible', 'NodeResizePending'];

function validatePersistentVolumeClaimResourceKey(value: string, fldPath: Path): ErrorList {
  const errs = isQualifiedName(value).map((m) => invalid(fldPath, value, m));
  if (errs.length > 0) return errs;
  if (isNativeResource(value) && value !== 'storage') return [notSupported(fldPath, value, ['storage'])];
  return [];
}

function validatePersistentVolumeClaimStatusUpdate(pvc: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(pvc.metadata, old.metadata, FieldPath.root('metadata'));
  if (str(pvc.metadata.resourceVersion).length === 0) errs.push(required(FieldPath.root('resourceVersion'), ''));
  const spec = obj(pvc['spec']) ?? {};
  if (strs(spec['accessModes']).length === 0) errs.push(required(FieldPath.root('Spec', 'accessModes'), ''));
  const status = obj(pvc['status']) ?? {};
  const capPath = FieldPath.root('status', 'capacity');
  for (const [name, v] of entries(status['capacity'])) {
    const q = parseQuantity(v);
    if (q) errs.push(...validateBasicResource(q, capPath.key(name)));
  }
  const resizePath = FieldPath.root('status', 'allocatedResourceStatus');
  for (const [name, v] of entries(status['allocatedResourceStatuses'])) {
    errs.push(...validatePersistentVolumeClaimResourceKey(name, resizePath));
    if (!resizeStatuses.includes(str(v))) errs.push(notSupported(resizePath, name, resizeStatuses));
  }
  const allocPath = FieldPath.root('status', 'allocatedResources');
  for (const [name, v] of entries(status['allocatedResources'])) {
    const keyErrs = validatePersistentVolumeClaimResourceKey(name, allocPath);
    if (keyErrs.length > 0) {
      errs.push(...keyErrs);
      continue;
    }
    const q = parseQuantity(v);
    if (!q) continue;
    const basic = validateBasicResource(q, allocPath.key(name));
    errs.push(...(basic.length > 0 ? basic : validateResourceQuantityValue('storage', q, allocPath.key(name))));
  }
  return errs;
}

registerValidator('', 'PersistentVolumeClaim', {
  create: (obj) => validatePersistentVolumeClaim(obj, { allowInvalidLabelValueInSelector: false }),
  update: (obj, old) => validatePersistentVolumeClaimUpdate(obj, old),
  updateStatus: (obj, old) => validatePersistentVolumeClaimStatusUpdate(obj, old),
});
