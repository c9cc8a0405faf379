/** PersistentVolume: access modes, capacity, exactly one volume source, node affinity; update rules. */
import { forbidden, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { isValidLabelValue, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { validateNodeSelector } from './affinity';
import { specDiff } from './diff';
import { clone, entries, isSet, obj, objs, semanticEqual, str, strs, type Obj } from './json';
import { fieldImmutableErrorMsg, validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from './meta';
import { validatePositiveQuantityValue } from './numbers';
import { cleanPath } from './paths';
import { validateAccessModes, supportedVolumeModes } from './persistentvolumeclaim';
import { parseQuantity } from './quantity';
import { validateBasicResource } from './resources';
import * as src from './volumesources';
import { own, setOwn } from '../../../api/own';

type PVSourceValidator = (source: Obj, fldPath: Path, pvName: string) => ErrorList;

/** PersistentVolume sources in upstream's order: [v1 field, path segment for its errors, validator, name in the "more than 1" error]. */
const pvSources: [string, string, PVSourceValidator, string?][] = [
  ['hostPath', 'hostPath', (s, p) => src.validateHostPathVolumeSource(s, p)],
  ['gcePersistentDisk', 'persistentDisk', (s, p) => src.validateGCEPersistentDiskVolumeSource(s, p)],
  ['awsElasticBlockStore', 'awsElasticBlockStore', (s, p) => src.validateAWSElasticBlockStoreVolumeSource(s, p)],
  ['glusterfs', 'glusterfs', (s, p) => src.validateGlusterfsVolumeSource(s, p, true)],
  ['flocker', 'flocker', (s, p) => src.validateFlockerVolumeSource(s, p)],
  ['nfs', 'nfs', (s, p) => src.validateNFSVolumeSource(s, p)],
  ['rbd', 'rbd', (s, p) => src.validateRBDVolumeSource(s, p)],
  ['quobyte', 'quobyte', (s, p) => src.validateQuobyteVolumeSource(s, p)],
  ['cephfs', 'cephfs', (s, p) => src.validateCephFSVolumeSource(s, p), 'cephFS'],
  ['iscsi', 'iscsi', (s, p, name) => src.validateISCSIVolumeSource(s, p, true, name)],
  ['cinder', 'cinder', (s, p) => src.validateCinderVolumeSource(s, p, true)],
  ['fc', 'fc', (s, p) => src.validateFCVolumeSource(s, p)],
  ['flexVolume', 'flexVolume', (s, p) => src.validateFlexVolumeSource(s, p)],
  ['azureFile', 'azureFile', (s, p) => src.validateAzureFile(s, p, true)],
  ['vsphereVolume', 'vsphereVolume', (s, p) => src.requireField(s, 'volumePath', p)],
  ['photonPersistentDisk', 'photonPersistentDisk', (s, p) => src.requireField(s, 'pdID', p)],
  ['portworxVolume', 'portworxVolume', (s, p) => src.requireField(s, 'volumeID', p)],
  ['azureDisk', 'azureDisk', (s, p) => src.validateAzureDisk(s, p)],
  ['scaleIO', 'scaleIO', (s, p) => src.validateScaleIOVolumeSource(s, p)],
  ['local', 'local', (s, p) => validateLocalVolumeSource(s, p)],
  ['storageos', 'storageos', (s, p) => src.validateStorageOSVolumeSource(s, p, true)],
  ['csi', 'csi', (s, p) => validateCSIPersistentVolumeSource(s, p)],
];

function validateLocalVolumeSource(local: Obj, fldPath: Path): ErrorList {
  const path = str(local['path']);
  if (path === '') return [required(fldPath.child('path'), '')];
  return validateNoBacksteps(path, fldPath.child('path'));
}

function validateNoBacksteps(p: string, fldPath: Path): ErrorList {
  return p.replace(/\\/g, '/').split('/').includes('..') ? [invalid(fldPath, p, "must not contain '..'")] : [];
}

function validateCSIPersistentVolumeSource(csi: Obj, fldPath: Path): ErrorList {
  const errs = src.validateCSIDriverName(str(csi['driver']), fldPath.child('driver'));
  if (str(csi['volumeHandle']).length === 0) errs.push(required(fldPath.child('volumeHandle'), ''));
  for (const ref of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef'] as const) {
    const r = obj(csi[ref]);
    if (r) errs.push(...src.validatePVSecretReference(r, fldPath.child(ref)));
  }
  return errs;
}

const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];

export interface PersistentVolumeOptions {
  allowInvalidLabelValueInRequiredNodeAffinity: boolean;
}

export function validatePersistentVolumeSpec(spec: Obj, pvName: string, fldPath: Path, opts: PersistentVolumeOptions): ErrorList {
  const errs: ErrorList = [];
  if (strs(spec['accessModes']).length === 0) errs.push(required(fldPath.child('accessModes'), ''));
  errs.push(...validateAccessModes(spec['accessModes'], fldPath.child('accessModes')));

  const capPath = fldPath.child('capacity');
  const capacity = entries(spec['capacity']);
  if (capacity.length === 0) errs.push(required(capPath, ''));
  if (!capacity.some(([k]) => k === 'storage') || capacity.length > 1) {
    errs.push(notSupported(capPath, obj(spec['capacity']) ?? {}, ['storage']));
  }
  for (const [name, v] of capacity) {
    const q = parseQuantity(v);
    if (!q) continue;
    errs.push(...validateBasicResource(q, capPath.key(name)));
    errs.push(...validatePositiveQuantityValue(q, capPath.key(name)));
  }

  const reclaim = str(spec['persistentVolumeReclaimPolicy']);
  if (reclaim.length > 0 && !reclaimPolicies.includes(reclaim)) errs.push(notSupported(fldPath.child('persistentVolumeReclaimPolicy'), reclaim, reclaimPolicies));

  let nodeAffinitySpecified = false;
  const nodeAffinity = obj(spec['nodeAffinity']);
  if (nodeAffinity) {
    nodeAffinitySpecified = true;
    const req = obj(nodeAffinity['required']);
    const naPath = fldPath.child('nodeAffinity', 'required');
    if (req) errs.push(...validateNodeSelector(req, opts.allowInvalidLabelValueInRequiredNodeAffinity, naPath));
    else errs.push(required(naPath, 'must specify required node constraints'));
  }

  let numVolumes = 0;
  for (const [field, pathName, validate, tooManyName] of pvSources) {
    const source = obj(own(spec, field));
    if (!source) continue;
    // Upstream counts a flexVolume without checking for an earlier source.
    if (numVolumes > 0 && field !== 'flexVolume') {
      errs.push(forbidden(fldPath.child(tooManyName ?? field), 'may not specify more than 1 volume type'));
      continue;
    }
    numVolumes++;
    errs.push(...validate(source, fldPath.child(pathName), pvName));
    if (field === 'local' && !nodeAffinitySpecified) errs.push(required(fldPath.child('nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (numVolumes === 0) errs.push(required(fldPath, 'must specify a volume type'));

  const hostPath = obj(spec['hostPath']);
  if (hostPath && cleanPath(str(hostPath['path'])) === '/' && reclaim === 'Recycle') {
    errs.push(forbidden(fldPath.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const scName = str(spec['storageClassName']);
  if (scName.length > 0) errs.push(...nameIsDNSSubdomain(scName, false).map((m) => invalid(fldPath.child('storageClassName'), scName, m)));
  if (isSet(spec['volumeMode']) && !supportedVolumeModes.includes(str(spec['volumeMode']))) {
    errs.push(notSupported(fldPath.child('volumeMode'), str(spec['volumeMode']), supportedVolumeModes));
  }
  if (isSet(spec['volumeAttributesClassName'])) {
    const vac = str(spec['volumeAttributesClassName']);
    if (vac.length === 0) errs.push(required(fldPath.child('volumeAttributesClassName'), 'an empty string is disallowed'));
    else errs.push(...nameIsDNSSubdomain(vac, false).map((m) => invalid(fldPath.child('volumeAttributesClassName'), vac, m)));
    if (!isSet(spec['csi'])) errs.push(required(fldPath.child('csi'), 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

const specOf = (pv: KubeObject): Obj => obj(pv['spec']) ?? {};

function validatePersistentVolume(pv: KubeObject, opts: PersistentVolumeOptions): ErrorList {
  return [
    ...validateObjectMeta(pv.metadata, false, nameIsDNSSubdomain, Path.root('metadata')),
    ...validatePersistentVolumeSpec(specOf(pv), str(pv.metadata.name), Path.root('spec'), opts),
  ];
}

/** The PersistentVolumeSource part of a spec: every volume source field. */
function sourceOf(spec: Obj): Obj {
  const out: Obj = {};
  for (const [field] of pvSources) if (own(spec, field) !== undefined) setOwn(out, field, own(spec, field));
  return out;
}

const betaToGALabel = new Map([
  ['failure-domain.beta.kubernetes.io/zone', 'topology.kubernetes.io/zone'],
  ['failure-domain.beta.kubernetes.io/region', 'topology.kubernetes.io/region'],
  ['beta.kubernetes.io/os', 'kubernetes.io/os'],
  ['beta.kubernetes.io/arch', 'kubernetes.io/arch'],
  ['beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type'],
]);

/** Node affinity is immutable, except that beta topology labels may be replaced by their GA names. */
function sameNodeAffinityModuloGALabels(newNA: unknown, oldNA: unknown): boolean {
  const masked = clone(obj(oldNA) ?? {});
  const newTerms = objs(obj(obj(newNA)?.['required'])?.['nodeSelectorTerms']);
  objs(obj(masked['required'])?.['nodeSelectorTerms']).forEach((term, i) => {
    const newExprs = objs(newTerms[i]?.['matchExpressions']);
    objs(term['matchExpressions']).forEach((expr, j) => {
      const newKey = str(newExprs[j]?.['key']);
      if (str(expr['key']) !== newKey && betaToGALabel.get(str(expr['key'])) === newKey) expr['key'] = newKey;
    });
  });
  return semanticEqual(newNA, isSet(oldNA) ? masked : oldNA);
}

function validatePersistentVolumeUpdate(pv: KubeObject, old: KubeObject): ErrorList {
  const oldSpec = specOf(old);
  const terms = objs(obj(obj(oldSpec['nodeAffinity'])?.['required'])?.['nodeSelectorTerms']);
  const opts = {
    allowInvalidLabelValueInRequiredNodeAffinity: terms.some((t) => objs(t['matchExpressions']).some((e) => strs(e['values']).some((v) => isValidLabelValue(v).length > 0))),
  };
  const errs = validatePersistentVolume(pv, opts);
  const spec = specOf(pv);
  const newSource = sourceOf(spec);
  const oldSource = sourceOf(oldSpec);
  // A CSI volume may gain a controllerExpandSecretRef after creation.
  const newCSI = obj(newSource['csi']);
  const oldCSI = obj(oldSource['csi']);
  if (newCSI && oldCSI && !isSet(oldCSI['controllerExpandSecretRef']) && isSet(newCSI['controllerExpandSecretRef'])) {
    newSource['csi'] = { ...newCSI, controllerExpandSecretRef: undefined };
  }
  if (!semanticEqual(newSource, oldSource)) {
    errs.push(forbidden(Path.root('spec', 'persistentvolumesource'), `spec.persistentvolumesource is immutable after creation\n${specDiff(oldSource, newSource)}`));
  }
  errs.push(...validateImmutableField(spec['volumeMode'], oldSpec['volumeMode'], Path.root('volumeMode')));
  if (isSet(oldSpec['nodeAffinity']) && !sameNodeAffinityModuloGALabels(spec['nodeAffinity'], oldSpec['nodeAffinity'])) {
    errs.push(invalid(Path.root('nodeAffinity'), obj(spec['nodeAffinity']) ?? null, `${fieldImmutableErrorMsg}, except for updating from beta label to GA`));
  }
  if (isSet(oldSpec['volumeAttributesClassName']) && !isSet(spec['volumeAttributesClassName'])) {
    errs.push(forbidden(Path.root('spec', 'volumeAttributesClassName'), 'update from non-nil value to nil is forbidden'));
  }
  return errs;
}

function validatePersistentVolumeStatusUpdate(pv: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(pv.metadata, old.metadata, Path.root('metadata'));
  if (str(pv.metadata.resourceVersion).length === 0) errs.push(required(Path.root('resourceVersion'), ''));
  return errs;
}

registerValidator('', 'PersistentVolume', {
  create: (pv) => validatePersistentVolume(pv, { allowInvalidLabelValueInRequiredNodeAffinity: false }),
  update: validatePersistentVolumeUpdate,
  updateStatus: validatePersistentVolumeStatusUpdate,
});
