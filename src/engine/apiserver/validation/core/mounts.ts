/**
 * volumeMounts and volumeDevices of a container: they must name pod volumes, use unique paths,
 * and not overlap each other. Several errors use the list's path rather than the item's
 * (e.g. `volumeMounts.subPath`), as upstream reports them.
 */
import { forbidden, invalid, notFound, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { bool, isSet, obj, objs, str, type Obj } from './json';
import { validateLocalDescendingPath, validatePathNoBacksteps } from './paths';
import { isPVCBacked, type VolumeMap } from './volumes';

const mountPropagationModes = ['Bidirectional', 'HostToContainer', 'None'];
const recursiveReadOnlyModes = ['Disabled', 'Enabled', 'IfPossible'];

export function validateVolumeMounts(container: Obj, volumes: VolumeMap, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const devices = new Map(objs(container['volumeDevices']).map((d) => [str(d['name']), str(d['devicePath'])]));
  const devicePaths = new Set(devices.values());
  const mountPoints = new Set<string>();
  objs(container['volumeMounts']).forEach((mnt, i) => {
    const idxPath = fldPath.index(i);
    const name = str(mnt['name']);
    const mountPath = str(mnt['mountPath']);
    const subPath = str(mnt['subPath']);
    const subPathExpr = str(mnt['subPathExpr']);
    if (name.length === 0) errs.push(required(idxPath.child('name'), ''));
    if (!volumes.has(name)) errs.push(notFound(idxPath.child('name'), name));
    if (mountPath.length === 0) errs.push(required(idxPath.child('mountPath'), ''));
    if (mountPoints.has(mountPath)) errs.push(invalid(idxPath.child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devices.has(name)) errs.push(invalid(idxPath.child('name'), name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath)) errs.push(invalid(idxPath.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    if (isSet(volumes.get(name)?.['image'])) {
      if (subPath.length !== 0) errs.push(invalid(idxPath.child('subPath'), subPath, 'not allowed in image volume sources'));
      if (subPathExpr.length !== 0) errs.push(invalid(idxPath.child('subPathExpr'), subPathExpr, 'not allowed in image volume sources'));
    }
    if (subPath.length > 0) errs.push(...validateLocalDescendingPath(subPath, fldPath.child('subPath')));
    if (subPathExpr.length > 0) {
      if (subPath.length > 0) errs.push(invalid(idxPath.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(subPathExpr, fldPath.child('subPathExpr')));
    }
    if (isSet(mnt['mountPropagation'])) errs.push(...validateMountPropagation(str(mnt['mountPropagation']), container, fldPath.child('mountPropagation')));
    errs.push(...validateMountRecursiveReadOnly(mnt, fldPath.child('recursiveReadOnly')));
  });
  return errs;
}

function validateMountPropagation(mode: string, container: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (!mountPropagationModes.includes(mode)) errs.push(notSupported(fldPath, mode, mountPropagationModes));
  const privileged = bool(obj(container['securityContext'])?.['privileged']);
  if (mode === 'Bidirectional' && !privileged) errs.push(forbidden(fldPath, 'Bidirectional mount propagation is available only to privileged containers'));
  return errs;
}

function validateMountRecursiveReadOnly(mnt: Obj, fldPath: Path): ErrorList {
  if (!isSet(mnt['recursiveReadOnly'])) return [];
  const mode = str(mnt['recursiveReadOnly']);
  const errs: ErrorList = [];
  switch (mode) {
    case 'Disabled':
      break;
    case 'Enabled':
    case 'IfPossible':
      if (!bool(mnt['readOnly'])) errs.push(forbidden(fldPath, 'may only be specified when readOnly is true'));
      if (isSet(mnt['mountPropagation']) && mnt['mountPropagation'] !== 'None') {
        errs.push(forbidden(fldPath, 'may only be specified when mountPropagation is None or not specified'));
      }
      break;
    default:
      errs.push(notSupported(fldPath, mode, recursiveReadOnlyModes));
  }
  return errs;
}

export function validateVolumeDevices(container: Obj, volumes: VolumeMap, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const mounts = new Map(objs(container['volumeMounts']).map((m) => [str(m['name']), str(m['mountPath'])]));
  const mountPaths = new Set(mounts.values());
  const devicePaths = new Set<string>();
  const deviceNames = new Set<string>();
  objs(container['volumeDevices']).forEach((dev, i) => {
    const idxPath = fldPath.index(i);
    const name = str(dev['name']);
    const devicePath = str(dev['devicePath']);
    const volume = volumes.get(name);
    if (name.length === 0) errs.push(required(idxPath.child('name'), ''));
    if (deviceNames.has(name)) errs.push(invalid(idxPath.child('name'), name, 'must be unique'));
    if (volume && !isPVCBacked(volume)) {
      errs.push(invalid(idxPath.child('name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (!volume) errs.push(notFound(idxPath.child('name'), name));
    if (devicePath.length === 0) errs.push(required(idxPath.child('devicePath'), ''));
    if (devicePaths.has(devicePath)) errs.push(invalid(idxPath.child('devicePath'), devicePath, 'must be unique'));
    if (devicePath.length > 0 && validatePathNoBacksteps(devicePath, fldPath.child('devicePath')).length > 0) {
      errs.push(invalid(idxPath.child('devicePath'), devicePath, "can not contain backsteps ('..')"));
    } else {
      devicePaths.add(devicePath);
    }
    if (mounts.has(name)) errs.push(invalid(idxPath.child('name'), name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devicePath)) errs.push(invalid(idxPath.child('devicePath'), devicePath, 'must not already exist as a path in volumeMounts'));
    if (name.length > 0) deviceNames.add(name);
  });
  return errs;
}
