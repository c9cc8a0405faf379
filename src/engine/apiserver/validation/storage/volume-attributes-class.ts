/**
 * VolumeAttributesClass rules (pkg/apis/storage/validation): a driver and a non-empty parameter
 * set, both fixed after creation.
 */
import { forbidden, Path, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { str } from '../core/json';
import { validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { parametersEqual, validateParameters, validateProvisioner } from './classes';

function validateVolumeAttributesClass(vac: KubeObject): ErrorList {
  return [
    ...validateObjectMeta(vac.metadata, false, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateProvisioner(str(vac['driverName']), Path.root('driverName')),
    ...validateParameters(vac['parameters'], false, Path.root('parameters')),
  ];
}

registerValidator('storage.k8s.io', 'VolumeAttributesClass', {
  create: validateVolumeAttributesClass,
  update: (vac, old) => {
    const errs = validateObjectMetaUpdate(vac.metadata, old.metadata, Path.root('metadata'));
    if (str(vac['driverName']) !== str(old['driverName'])) errs.push(forbidden(Path.root('driverName'), 'updates to driverName are forbidden.'));
    if (!parametersEqual(vac['parameters'], old['parameters'])) errs.push(forbidden(Path.root('parameters'), 'updates to parameters are forbidden.'));
    return [...errs, ...validateVolumeAttributesClass(vac)];
  },
});
