/**
 * CSINode rules (pkg/apis/storage/validation): one entry per driver with its node ID and
 * topology keys. Only a driver's allocatable count may change after registration.
 */
import { duplicate, invalid, Path, required, type ErrorList } from '../../../api/field';
import { goJson } from '../../../api/gofmt';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { num, obj, objs, str, strs } from '../core/json';
import { goStruct } from '../apps/go-values';
import { validateNonnegativeField, validateObjectMeta } from '../meta';
import { registerValidator } from '../registry';
import { validateCSIDriverName } from './csi-driver';

/** Node IDs may be up to 256 characters since 1.28 (the strategy always allows the longer limit). */
const csiNodeIDMaxLength = 256;

function validateDriver(driver: Record<string, unknown>, names: Set<string>, fldPath: Path): ErrorList {
  const name = str(driver['name']);
  const nodeID = str(driver['nodeID']);
  const errs = validateCSIDriverName(name, fldPath.child('name'));
  if (nodeID.length === 0) errs.push(required(fldPath.child('nodeID'), ''));
  if (nodeID.length > csiNodeIDMaxLength) errs.push(invalid(fldPath.child('nodeID'), nodeID, `must be ${csiNodeIDMaxLength} characters or less`));
  const count = num(obj(driver['allocatable'])?.['count']);
  if (count !== undefined) errs.push(...validateNonnegativeField(count, fldPath.child('allocatable', 'count')));
  if (names.has(name)) errs.push(duplicate(fldPath.child('name'), name));
  names.add(name);
  const keys = new Set<string>();
  for (const key of strs(driver['topologyKeys'])) {
    if (key.length === 0) errs.push(required(fldPath, ''));
    if (keys.has(key)) errs.push(duplicate(fldPath, key));
    keys.add(key);
    for (const msg of isQualifiedName(key)) errs.push(invalid(fldPath, key, msg));
  }
  return errs;
}

function validateCSINode(node: KubeObject): ErrorList {
  const names = new Set<string>();
  return [
    ...validateObjectMeta(node.metadata, false, nameIsDNSSubdomain, Path.root('metadata')),
    ...objs(obj(node['spec'])?.['drivers']).flatMap((d, i) => validateDriver(d, names, Path.root('spec', 'drivers').index(i))),
  ];
}

/** The internal CSINodeDriver without its mutable allocatable count. */
function driverValue(d: Record<string, unknown>): Map<string, unknown> {
  return goStruct([
    ['Name', str(d['name'])],
    ['NodeID', str(d['nodeID'])],
    ['TopologyKeys', d['topologyKeys'] ?? null],
    ['Allocatable', null],
  ]);
}

// On update the registry strategy runs the create rules and then the update rules, which run
// them again: upstream reports those errors twice (the Status message dedupes them).
function validateCSINodeUpdate(node: KubeObject, old: KubeObject): ErrorList {
  const errs = [...validateCSINode(node), ...validateCSINode(node)];
  const drivers = objs(obj(node['spec'])?.['drivers']);
  for (const oldDriver of objs(obj(old['spec'])?.['drivers'])) {
    for (const d of drivers) {
      if (str(d['name']) !== str(oldDriver['name'])) continue;
      const now = driverValue(d);
      if (goJson(now) !== goJson(driverValue(oldDriver))) errs.push(invalid(Path.root('spec', 'drivers'), now, 'field is immutable'));
    }
  }
  return errs;
}

registerValidator('storage.k8s.io', 'CSINode', { create: validateCSINode, update: validateCSINodeUpdate });
