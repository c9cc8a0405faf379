/**
 * Defaults of volume sources that pods and persistent volumes share (the PV variants of RBD,
 * iSCSI and ScaleIO carry the same defaults as the pod ones). Most come from +default markers.
 */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil } from '../fields';

/** Type "" means "no checks before mounting", and is written out explicitly. */
export function defaultHostPath(source: JsonObject): void {
  defaultNil(source, 'type', '');
}

export function defaultRBD(source: JsonObject): void {
  defaultEmptyString(source, 'pool', 'rbd');
  defaultEmptyString(source, 'user', 'admin');
  defaultEmptyString(source, 'keyring', '/etc/ceph/keyring');
}

export function defaultISCSI(source: JsonObject): void {
  defaultEmptyString(source, 'iscsiInterface', 'default');
}

export function defaultAzureDisk(source: JsonObject): void {
  defaultNil(source, 'cachingMode', 'ReadWrite');
  defaultNil(source, 'fsType', 'ext4');
  defaultNil(source, 'readOnly', false);
  defaultNil(source, 'kind', 'Shared');
}

export function defaultScaleIO(source: JsonObject): void {
  defaultEmptyString(source, 'storageMode', 'ThinProvisioned');
  defaultEmptyString(source, 'fsType', 'xfs');
}
