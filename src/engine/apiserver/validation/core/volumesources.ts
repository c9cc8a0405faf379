/**
 * Validation of the individual volume source types, shared by pod volumes and (for the
 * persistent kinds) PersistentVolume specs.
 */
import { invalid, notSupported, required, tooLong, type ErrorList, type Path } from '../../../api/field';
import { isDNS1123Subdomain, inclusiveRangeError, nameIsDNSSubdomain, validateNamespaceName } from '../../../api/names';
import { validateDNS1123Label, validateDNS1123Subdomain } from './formats';
import { arr, entries, int, isSet, num, obj, str, type Obj } from './json';
import { isAbs, validateLocalDescendingPath, validateLocalNonReservedPath, validatePathNoBacksteps } from './paths';
import { own } from '../../../api/own';

export const fileModeErrorMsg = 'must be a number between 0 and 0777 (octal), both inclusive';
const pdPartitionErrorMsg = inclusiveRangeError(1, 255);

export function validateFileMode(mode: unknown, fldPath: Path): ErrorList {
  const m = num(mode);
  return m !== undefined && (m > 0o777 || m < 0) ? [invalid(fldPath, m, fileModeErrorMsg)] : [];
}

const hostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

export function validateHostPathVolumeSource(hp: Obj, fldPath: Path): ErrorList {
  const path = str(hp['path']);
  if (path.length === 0) return [required(fldPath.child('path'), '')];
  const errs = validatePathNoBacksteps(path, fldPath.child('path'));
  if (typeof hp['type'] === 'string' && !hostPathTypes.includes(hp['type'])) {
    errs.push(notSupported(fldPath.child('type'), hp['type'], hostPathTypes));
  }
  return errs;
}

export function validateGitRepoVolumeSource(git: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (str(git['repository']).length === 0) errs.push(required(fldPath.child('repository'), ''));
  errs.push(...validateLocalDescendingPath(str(git['directory']), fldPath.child('directory')));
  return errs;
}

const iqnRegex = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\t\n\f\r ]+)$/;
const euiRegex = /^eui.[A-Za-z0-9]{16}$/;
const naaRegex = /^naa.[A-Za-z0-9]{32}$/;

function wellFormedName(value: string): boolean {
  if (value.startsWith('iqn')) return iqnRegex.test(value);
  if (value.startsWith('eui')) return euiRegex.test(value);
  if (value.startsWith('naa')) return naaRegex.test(value);
  return true;
}

const knownPrefix = (v: string): boolean => v.startsWith('iqn') || v.startsWith('eui') || v.startsWith('naa');

/** Pod volumes explain the expected prefixes; PersistentVolumes only say "must be valid format". */
export function validateISCSIVolumeSource(iscsi: Obj, fldPath: Path, persistent: boolean, pvName = ''): ErrorList {
  const errs: ErrorList = [];
  const prefixMsg = persistent ? 'must be valid format' : 'must be valid format starting with iqn, eui, or naa';
  const portal = str(iscsi['targetPortal']);
  if (portal.length === 0) errs.push(required(fldPath.child('targetPortal'), ''));
  if (persistent && isSet(iscsi['initiatorName']) && `${pvName}:${portal}`.length > 64) {
    errs.push(invalid(fldPath.child('targetportal'), portal, 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
  }
  const iqn = str(iscsi['iqn']);
  if (iqn.length === 0) errs.push(required(fldPath.child('iqn'), ''));
  else if (!knownPrefix(iqn)) errs.push(invalid(fldPath.child('iqn'), iqn, prefixMsg));
  else if (!wellFormedName(iqn)) errs.push(invalid(fldPath.child('iqn'), iqn, 'must be valid format'));
  const lun = int(iscsi['lun']);
  if (lun < 0 || lun > 255) errs.push(invalid(fldPath.child('lun'), lun, inclusiveRangeError(0, 255)));
  if ((iscsi['chapAuthDiscovery'] === true || iscsi['chapAuthSession'] === true) && !isSet(iscsi['secretRef'])) {
    errs.push(required(fldPath.child('secretRef'), ''));
  }
  const secretRef = obj(iscsi['secretRef']);
  if (persistent && secretRef && str(secretRef['name']).length === 0) errs.push(required(fldPath.child('secretRef', 'name'), ''));
  if (isSet(iscsi['initiatorName'])) {
    const initiator = str(iscsi['initiatorName']);
    if (!knownPrefix(initiator)) errs.push(invalid(fldPath.child('initiatorname'), initiator, prefixMsg));
    if (!wellFormedName(initiator)) errs.push(invalid(fldPath.child('initiatorname'), initiator, 'must be valid format'));
  }
  return errs;
}

export function validateFCVolumeSource(fc: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const wwns = arr(fc['targetWWNs']);
  const wwids = arr(fc['wwids']);
  if (wwns.length < 1 && wwids.length < 1) errs.push(required(fldPath.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0) errs.push(invalid(fldPath.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length !== 0) {
    const lun = num(fc['lun']);
    if (lun === undefined) errs.push(required(fldPath.child('lun'), 'lun is required if targetWWNs is specified'));
    else if (lun < 0 || lun > 255) errs.push(invalid(fldPath.child('lun'), lun, inclusiveRangeError(0, 255)));
  }
  return errs;
}

/** The disks addressed by an id and a partition (GCE persistent disks, AWS EBS): the id is required, the partition 0..255. */
function validatePartitionedDisk(pd: Obj, idField: 'pdName' | 'volumeID', fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (str(pd[idField]).length === 0) errs.push(required(fldPath.child(idField), ''));
  const partition = int(pd['partition']);
  if (partition < 0 || partition > 255) errs.push(invalid(fldPath.child('partition'), partition, pdPartitionErrorMsg));
  return errs;
}

export const validateGCEPersistentDiskVolumeSource = (pd: Obj, fldPath: Path): ErrorList => validatePartitionedDisk(pd, 'pdName', fldPath);

export const validateAWSElasticBlockStoreVolumeSource = (pd: Obj, fldPath: Path): ErrorList => validatePartitionedDisk(pd, 'volumeID', fldPath);

export function validateKeyToPath(kp: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (str(kp['key']).length === 0) errs.push(required(fldPath.child('key'), ''));
  const path = str(kp['path']);
  if (path.length === 0) errs.push(required(fldPath.child('path'), ''));
  errs.push(...validateLocalNonReservedPath(path, fldPath.child('path')));
  errs.push(...validateFileMode(kp['mode'], fldPath.child('mode')));
  return errs;
}

function validateItemsVolumeSource(src: Obj, nameField: string, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (str(own(src, nameField)).length === 0) errs.push(required(fldPath.child(nameField), ''));
  errs.push(...validateFileMode(src['defaultMode'], fldPath.child('defaultMode')));
  arr(src['items']).forEach((kp, i) => errs.push(...validateKeyToPath(obj(kp) ?? {}, fldPath.child('items').index(i))));
  return errs;
}

export function validateNFSVolumeSource(nfs: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (str(nfs['server']).length === 0) errs.push(required(fldPath.child('server'), ''));
  const path = str(nfs['path']);
  if (path.length === 0) errs.push(required(fldPath.child('path'), ''));
  if (!isAbs(path)) errs.push(invalid(fldPath.child('path'), path, 'must be an absolute path'));
  return errs;
}

/** net.SplitHostPort succeeds: host and port separated by the last colon, IPv6 hosts bracketed. */
function splitsHostPort(s: string): boolean {
  const colon = s.lastIndexOf(':');
  if (colon < 0) return false;
  let host: string;
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    if (end < 0 || end + 1 !== colon) return false;
    host = s.slice(1, end);
    if (host.includes('[') || host.includes(']')) return false;
  } else {
    host = s.slice(0, colon);
    if (host.includes(':') || host.includes('[') || host.includes(']')) return false;
  }
  const port = s.slice(colon + 1);
  return !port.includes('[') && !port.includes(']');
}

export function validateQuobyteVolumeSource(q: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const registry = str(q['registry']);
  const registryMsg = 'must be a host:port pair or multiple pairs separated by commas';
  if (registry.length === 0) {
    errs.push(required(fldPath.child('registry'), registryMsg));
  } else if (str(q['tenant']).length >= 65) {
    errs.push(required(fldPath.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
  } else {
    for (const pair of registry.split(',')) if (!splitsHostPort(pair)) errs.push(invalid(fldPath.child('registry'), registry, registryMsg));
  }
  if (str(q['volume']).length === 0) errs.push(required(fldPath.child('volume'), ''));
  return errs;
}

export function validateGlusterfsVolumeSource(g: Obj, fldPath: Path, persistent: boolean): ErrorList {
  const errs: ErrorList = [];
  if (str(g['endpoints']).length === 0) errs.push(required(fldPath.child('endpoints'), ''));
  if (str(g['path']).length === 0) errs.push(required(fldPath.child('path'), ''));
  if (persistent && isSet(g['endpointsNamespace'])) {
    const ns = str(g['endpointsNamespace']);
    const path = fldPath.child('endpointsNamespace');
    if (ns === '') errs.push(invalid(path, ns, 'if the endpointnamespace is set, it must be a valid namespace name'));
    else errs.push(...validateNamespaceName(ns, false).map((m) => invalid(path, ns, m)));
  }
  return errs;
}

export function validateFlockerVolumeSource(f: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const name = str(f['datasetName']);
  const uuid = str(f['datasetUUID']);
  if (name.length === 0 && uuid.length === 0) errs.push(required(fldPath, 'one of datasetName and datasetUUID is required'));
  if (name.length !== 0 && uuid.length !== 0) errs.push(invalid(fldPath, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errs.push(invalid(fldPath.child('datasetName'), name, "must not contain '/'"));
  return errs;
}

export function validateRBDVolumeSource(rbd: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (arr(rbd['monitors']).length === 0) errs.push(required(fldPath.child('monitors'), ''));
  if (str(rbd['image']).length === 0) errs.push(required(fldPath.child('image'), ''));
  return errs;
}

export function validateCinderVolumeSource(cd: Obj, fldPath: Path, persistent: boolean): ErrorList {
  const errs: ErrorList = [];
  if (str(cd['volumeID']).length === 0) errs.push(required(fldPath.child('volumeID'), ''));
  const ref = obj(cd['secretRef']);
  if (ref) {
    if (str(ref['name']).length === 0) errs.push(required(fldPath.child('secretRef', 'name'), ''));
    if (persistent && str(ref['namespace']).length === 0) errs.push(required(fldPath.child('secretRef', 'namespace'), ''));
  }
  return errs;
}

export function validateCephFSVolumeSource(c: Obj, fldPath: Path): ErrorList {
  return arr(c['monitors']).length === 0 ? [required(fldPath.child('monitors'), '')] : [];
}

export function validateFlexVolumeSource(fv: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (str(fv['driver']).length === 0) errs.push(required(fldPath.child('driver'), ''));
  for (const [k] of entries(fv['options'])) {
    const slash = k.indexOf('/');
    const namespace = slash >= 0 ? k.slice(0, slash) : k;
    const normalized = '.' + namespace.toLowerCase();
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io')) {
      errs.push(invalid(fldPath.child('options').key(k), k, 'kubernetes.io and k8s.io namespaces are reserved'));
    }
  }
  return errs;
}

export function validateAzureFile(az: Obj, fldPath: Path, persistent: boolean): ErrorList {
  const errs: ErrorList = [];
  if (str(az['secretName']) === '') errs.push(required(fldPath.child('secretName'), ''));
  if (str(az['shareName']) === '') errs.push(required(fldPath.child('shareName'), ''));
  if (persistent && isSet(az['secretNamespace']) && str(az['secretNamespace']).length === 0) errs.push(required(fldPath.child('secretNamespace'), ''));
  return errs;
}

const azureCachingModes = ['None', 'ReadOnly', 'ReadWrite'];
const azureDiskKinds = ['Dedicated', 'Managed', 'Shared'];

export function validateAzureDisk(az: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const uri = str(az['diskURI']);
  if (str(az['diskName']) === '') errs.push(required(fldPath.child('diskName'), ''));
  if (uri === '') errs.push(required(fldPath.child('diskURI'), ''));
  if (isSet(az['cachingMode']) && !azureCachingModes.includes(str(az['cachingMode']))) {
    errs.push(notSupported(fldPath.child('cachingMode'), str(az['cachingMode']), azureCachingModes));
  }
  if (isSet(az['kind'])) {
    const kind = str(az['kind']);
    if (!azureDiskKinds.includes(kind)) errs.push(notSupported(fldPath.child('kind'), kind, azureDiskKinds));
    if (kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
      errs.push(notSupported(fldPath.child('diskURI'), uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
    }
    if (kind !== 'Managed' && !uri.startsWith('https://')) {
      errs.push(notSupported(fldPath.child('diskURI'), uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
    }
  }
  return errs;
}

export function requireField(src: Obj, field: string, fldPath: Path): ErrorList {
  return str(own(src, field)).length === 0 ? [required(fldPath.child(field), '')] : [];
}

export function validateScaleIOVolumeSource(sio: Obj, fldPath: Path): ErrorList {
  return [...requireField(sio, 'gateway', fldPath), ...requireField(sio, 'system', fldPath), ...requireField(sio, 'volumeName', fldPath)];
}

export function validateStorageOSVolumeSource(s: Obj, fldPath: Path, persistent: boolean): ErrorList {
  const errs: ErrorList = [];
  const name = str(s['volumeName']);
  if (name.length === 0) errs.push(required(fldPath.child('volumeName'), ''));
  else errs.push(...validateDNS1123Label(name, fldPath.child('volumeName')));
  const ns = str(s['volumeNamespace']);
  if (ns.length > 0) errs.push(...validateDNS1123Label(ns, fldPath.child('volumeNamespace')));
  const ref = obj(s['secretRef']);
  if (ref) {
    if (str(ref['name']).length === 0) errs.push(required(fldPath.child('secretRef', 'name'), ''));
    if (persistent && str(ref['namespace']).length === 0) errs.push(required(fldPath.child('secretRef', 'namespace'), ''));
  }
  return errs;
}

export function validateCSIDriverName(driver: string, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (driver.length === 0) errs.push(required(fldPath, ''));
  if (driver.length > 63) errs.push(tooLong(fldPath, 63));
  errs.push(...isDNS1123Subdomain(driver.toLowerCase()).map((m) => invalid(fldPath, driver, m)));
  return errs;
}

export function validateCSIVolumeSource(csi: Obj, fldPath: Path): ErrorList {
  const errs = validateCSIDriverName(str(csi['driver']), fldPath.child('driver'));
  const ref = obj(csi['nodePublishSecretRef']);
  if (ref) {
    const name = str(ref['name']);
    if (name.length === 0) errs.push(required(fldPath.child('nodePublishSecretRef', 'name'), ''));
    else errs.push(...nameIsDNSSubdomain(name, false).map((m) => invalid(fldPath.child('name'), name, m)));
  }
  return errs;
}

/** A SecretReference in a PersistentVolume source: a name and a namespace. */
export function validatePVSecretReference(ref: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const name = str(ref['name']);
  if (name.length === 0) errs.push(required(fldPath.child('name'), ''));
  else errs.push(...validateDNS1123Subdomain(name, fldPath.child('name')));
  const ns = str(ref['namespace']);
  if (ns.length === 0) errs.push(required(fldPath.child('namespace'), ''));
  else errs.push(...validateDNS1123Label(ns, fldPath.child('namespace')));
  return errs;
}

export function validateSecretVolumeSource(s: Obj, fldPath: Path): ErrorList {
  return validateItemsVolumeSource(s, 'secretName', fldPath);
}

export function validateConfigMapVolumeSource(c: Obj, fldPath: Path): ErrorList {
  return validateItemsVolumeSource(c, 'name', fldPath);
}
