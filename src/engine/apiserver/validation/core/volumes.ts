/**
 * Pod volumes: unique DNS-label names and exactly one volume source each, plus the projected,
 * downwardAPI, ephemeral and image sources that only pods have.
 */
import { duplicate, forbidden, invalid, required, type ErrorList, type Path } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import { validateContainerResourceFieldSelector, validateObjectFieldSelector, volumeFieldPaths } from './downwardapi';
import { validateDNS1123Label } from './formats';
import { int, isSet, obj, objs, str, type Obj } from './json';
import { validateAnnotations, validateLabels } from './meta';
import type { PodValidationOptions } from './options';
import { validateLocalNonReservedPath } from './paths';
import { validatePersistentVolumeClaimSpec } from './persistentvolumeclaim';
import { validatePullPolicy } from './pullpolicy';
import { parseQuantity, zeroQuantity } from './quantity';
import * as src from './volumesources';
import { own } from '../../../api/own';

type SourceValidator = (source: Obj, fldPath: Path, volName: string, podMeta: Obj | undefined, opts: PodValidationOptions) => ErrorList;

/**
 * Every pod volume source in upstream's checking order: [v1 field, path segment used for its
 * own errors, validator]. The path segments keep upstream's spellings ("persistentDisk",
 * "cephfs"), and the "more than 1 volume type" error uses the field name except for the
 * downwardAPI source, where upstream reports "downwarAPI".
 */
const podVolumeSources: [string, string, SourceValidator, string?][] = [
  ['emptyDir', 'emptyDir', validateEmptyDir],
  ['hostPath', 'hostPath', (s, p) => src.validateHostPathVolumeSource(s, p)],
  ['gitRepo', 'gitRepo', (s, p) => src.validateGitRepoVolumeSource(s, p)],
  ['gcePersistentDisk', 'persistentDisk', (s, p) => src.validateGCEPersistentDiskVolumeSource(s, p)],
  ['awsElasticBlockStore', 'awsElasticBlockStore', (s, p) => src.validateAWSElasticBlockStoreVolumeSource(s, p)],
  ['secret', 'secret', (s, p) => src.validateSecretVolumeSource(s, p)],
  ['nfs', 'nfs', (s, p) => src.validateNFSVolumeSource(s, p)],
  ['iscsi', 'iscsi', (s, p) => src.validateISCSIVolumeSource(s, p, false)],
  ['glusterfs', 'glusterfs', (s, p) => src.validateGlusterfsVolumeSource(s, p, false)],
  ['flocker', 'flocker', (s, p) => src.validateFlockerVolumeSource(s, p)],
  ['persistentVolumeClaim', 'persistentVolumeClaim', (s, p) => src.requireField(s, 'claimName', p)],
  ['rbd', 'rbd', (s, p) => src.validateRBDVolumeSource(s, p)],
  ['cinder', 'cinder', (s, p) => src.validateCinderVolumeSource(s, p, false)],
  ['cephfs', 'cephfs', (s, p) => src.validateCephFSVolumeSource(s, p), 'cephFS'],
  ['quobyte', 'quobyte', (s, p) => src.validateQuobyteVolumeSource(s, p)],
  ['downwardAPI', 'downwardAPI', (s, p) => validateDownwardAPIVolumeSource(s, p), 'downwarAPI'],
  ['fc', 'fc', (s, p) => src.validateFCVolumeSource(s, p)],
  ['flexVolume', 'flexVolume', (s, p) => src.validateFlexVolumeSource(s, p)],
  ['configMap', 'configMap', (s, p) => src.validateConfigMapVolumeSource(s, p)],
  ['azureFile', 'azureFile', (s, p) => src.validateAzureFile(s, p, false)],
  ['vsphereVolume', 'vsphereVolume', (s, p) => src.requireField(s, 'volumePath', p)],
  ['photonPersistentDisk', 'photonPersistentDisk', (s, p) => src.requireField(s, 'pdID', p)],
  ['portworxVolume', 'portworxVolume', (s, p) => src.requireField(s, 'volumeID', p)],
  ['azureDisk', 'azureDisk', (s, p) => src.validateAzureDisk(s, p)],
  ['storageos', 'storageos', (s, p) => src.validateStorageOSVolumeSource(s, p, false)],
  ['projected', 'projected', (s, p, _n, _m, o) => validateProjectedVolumeSource(s, p, o)],
  ['scaleIO', 'scaleIO', (s, p) => src.validateScaleIOVolumeSource(s, p)],
  ['csi', 'csi', (s, p) => src.validateCSIVolumeSource(s, p)],
  ['ephemeral', 'ephemeral', validateEphemeralVolumeSource],
  ['image', 'image', (s, p, _n, _m, o) => validateImageVolumeSource(s, p, o)],
];

/** The volumes that validated, by name, for mounts and devices to refer to. */
export type VolumeMap = Map<string, Obj>;

export function validateVolumes(volumes: unknown, podMeta: Obj | undefined, fldPath: Path, opts: PodValidationOptions): { vols: VolumeMap; errs: ErrorList } {
  const errs: ErrorList = [];
  const vols: VolumeMap = new Map();
  const list = objs(volumes);
  const podName = str(podMeta?.['name']);
  // PVCs this pod's ephemeral volumes will create; a claim source may not point at one of them.
  const createdPVCs = new Set(podName === '' ? [] : list.filter((v) => isSet(v['ephemeral'])).map((v) => `${podName}-${str(v['name'])}`));
  list.forEach((vol, i) => {
    const idxPath = fldPath.index(i);
    const namePath = idxPath.child('name');
    const name = str(vol['name']);
    const el = validateVolumeSource(vol, idxPath, name, podMeta, opts);
    if (name.length === 0) el.push(required(namePath, ''));
    else el.push(...validateDNS1123Label(name, namePath));
    if (vols.has(name)) el.push(duplicate(namePath, name));
    if (el.length === 0) vols.set(name, vol);
    else errs.push(...el);
    const claimName = str(obj(vol['persistentVolumeClaim'])?.['claimName']);
    if (isSet(vol['persistentVolumeClaim']) && createdPVCs.has(claimName)) {
      errs.push(invalid(idxPath.child('persistentVolumeClaim', 'claimName'), claimName, 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { vols, errs };
}

function validateVolumeSource(vol: Obj, fldPath: Path, volName: string, podMeta: Obj | undefined, opts: PodValidationOptions): ErrorList {
  const errs: ErrorList = [];
  let numVolumes = 0;
  for (const [field, pathName, validate, tooManyName] of podVolumeSources) {
    const source = obj(own(vol, field));
    if (!source) continue;
    if (numVolumes > 0) {
      errs.push(forbidden(fldPath.child(tooManyName ?? field), 'may not specify more than 1 volume type'));
    } else {
      numVolumes++;
      errs.push(...validate(source, fldPath.child(pathName), volName, podMeta, opts));
    }
    if (field === 'iscsi' && isSet(source['initiatorName']) && `${volName}:${str(source['targetPortal'])}`.length > 64) {
      errs.push(invalid(fldPath.child('name'), volName, 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
    }
  }
  if (numVolumes === 0) errs.push(required(fldPath, 'must specify a volume type'));
  return errs;
}

function validateEmptyDir(source: Obj, fldPath: Path): ErrorList {
  const sizeLimit = parseQuantity(source['sizeLimit']);
  if (sizeLimit && sizeLimit.cmp(zeroQuantity) < 0) return [forbidden(fldPath.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity')];
  return [];
}

function validateDownwardAPIVolumeFile(file: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const path = str(file['path']);
  if (path.length === 0) errs.push(required(fldPath.child('path'), ''));
  errs.push(...validateLocalNonReservedPath(path, fldPath.child('path')));
  const fieldRef = obj(file['fieldRef']);
  const resourceFieldRef = obj(file['resourceFieldRef']);
  if (fieldRef) {
    errs.push(...validateObjectFieldSelector(fieldRef, volumeFieldPaths, fldPath.child('fieldRef')));
    if (resourceFieldRef) errs.push(invalid(fldPath, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (resourceFieldRef) {
    errs.push(...validateContainerResourceFieldSelector(resourceFieldRef, fldPath.child('resourceFieldRef'), true));
  } else {
    errs.push(required(fldPath, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...src.validateFileMode(file['mode'], fldPath.child('mode')));
  return errs;
}

function validateDownwardAPIVolumeSource(source: Obj, fldPath: Path): ErrorList {
  const errs = src.validateFileMode(source['defaultMode'], fldPath.child('defaultMode'));
  // Upstream reports every item at the volume's own path, not at items[i].
  for (const file of objs(source['items'])) errs.push(...validateDownwardAPIVolumeFile(file, fldPath));
  return errs;
}

function validateProjectedVolumeSource(projection: Obj, fldPath: Path, opts: PodValidationOptions): ErrorList {
  const errs = src.validateFileMode(projection['defaultMode'], fldPath.child('defaultMode'));
  const allPaths = new Set<string>();
  const claimPath = (p: string, badValue: string): void => {
    if (p.length === 0) return;
    if (allPaths.has(p)) errs.push(invalid(fldPath, badValue, 'conflicting duplicate paths'));
    else allPaths.add(p);
  };
  objs(projection['sources']).forEach((source, i) => {
    let numSources = 0;
    const srcPath = fldPath.child('sources').index(i);
    for (const kind of ['secret', 'configMap'] as const) {
      const s = obj(source[kind]);
      if (!s) continue;
      numSources++;
      const projPath = srcPath.child(kind);
      if (str(s['name']).length === 0) errs.push(required(projPath.child('name'), ''));
      objs(s['items']).forEach((kp, j) => {
        errs.push(...src.validateKeyToPath(kp, projPath.child('items').index(j)));
        claimPath(str(kp['path']), str(s['name']));
      });
    }
    const downward = obj(source['downwardAPI']);
    if (downward) {
      numSources++;
      for (const file of objs(downward['items'])) {
        errs.push(...validateDownwardAPIVolumeFile(file, srcPath.child('downwardAPI')));
        claimPath(str(file['path']), str(file['path']));
      }
    }
    const token = obj(source['serviceAccountToken']);
    if (token) {
      numSources++;
      const projPath = srcPath.child('serviceAccountToken');
      const expiration = int(token['expirationSeconds']);
      if (expiration < 600) errs.push(invalid(projPath.child('expirationSeconds'), expiration, 'may not specify a duration less than 10 minutes'));
      if (expiration > 2 ** 32) errs.push(invalid(projPath.child('expirationSeconds'), expiration, 'may not specify a duration larger than 2^32 seconds'));
      const path = str(token['path']);
      // Upstream reports the token path at the volume's path, not the source's.
      if (path === '') errs.push(required(fldPath.child('path'), ''));
      else if (!opts.allowNonLocalProjectedTokenPath) errs.push(...validateLocalNonReservedPath(path, fldPath.child('path')));
    }
    if (numSources > 1) errs.push(forbidden(srcPath, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

function validateEphemeralVolumeSource(source: Obj, fldPath: Path, volName: string, podMeta: Obj | undefined): ErrorList {
  const template = obj(source['volumeClaimTemplate']);
  const errs: ErrorList = [];
  if (!template) {
    errs.push(required(fldPath.child('volumeClaimTemplate'), ''));
  } else {
    const tmplPath = fldPath.child('volumeClaimTemplate');
    errs.push(...validateTemplateObjectMeta(obj(template['metadata']) ?? {}, tmplPath.child('metadata')));
    errs.push(...validatePersistentVolumeClaimSpec(obj(template['spec']) ?? {}, tmplPath.child('spec'), { allowInvalidLabelValueInSelector: false }));
  }
  // The claim will be named <pod>-<volume>; that name has to be valid too.
  const podName = str(podMeta?.['name']);
  if (podName !== '' && volName !== '') {
    const pvcName = `${podName}-${volName}`;
    for (const m of nameIsDNSSubdomain(pvcName, false)) errs.push(invalid(fldPath.child('name'), volName, `PVC name "${pvcName}": ${m}`));
  }
  return errs;
}

/** The ObjectMeta fields, in Go's declaration order, with the names upstream lower-cases them to. */
const objectMetaFields: [string, string][] = [
  ['name', 'name'],
  ['generateName', 'generateName'],
  ['namespace', 'namespace'],
  ['selfLink', 'selfLink'],
  ['uid', 'uID'],
  ['resourceVersion', 'resourceVersion'],
  ['generation', 'generation'],
  ['creationTimestamp', 'creationTimestamp'],
  ['deletionTimestamp', 'deletionTimestamp'],
  ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'],
  ['ownerReferences', 'ownerReferences'],
  ['finalizers', 'finalizers'],
  ['managedFields', 'managedFields'],
];

/** Embedded templates may only carry labels and annotations. */
export function validateTemplateObjectMeta(meta: Obj, fldPath: Path): ErrorList {
  const errs = validateAnnotations(meta['annotations'], fldPath.child('annotations'));
  errs.push(...validateLabels(meta['labels'], fldPath.child('labels')));
  for (const [field, goName] of objectMetaFields) {
    const v = own(meta, field);
    const set = Array.isArray(v) ? v.length > 0 : v !== undefined && v !== null && v !== '' && v !== 0;
    if (set) errs.push(forbidden(fldPath.child(goName), 'cannot be set'));
  }
  return errs;
}

function validateImageVolumeSource(source: Obj, fldPath: Path, opts: PodValidationOptions): ErrorList {
  const errs: ErrorList = [];
  if (opts.resourceIsPod && str(source['reference']).length === 0) errs.push(required(fldPath.child('reference'), ''));
  errs.push(...validatePullPolicy(source['pullPolicy'], fldPath.child('pullPolicy')));
  return errs;
}

export function isPVCBacked(source: Obj): boolean {
  return isSet(source['persistentVolumeClaim']) || isSet(source['ephemeral']);
}
