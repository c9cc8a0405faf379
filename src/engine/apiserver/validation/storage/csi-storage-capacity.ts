/**
 * CSIStorageCapacity rules (pkg/apis/storage/validation): the topology and class a capacity
 * report is about never change; the reported numbers may.
 */
import { invalid, Path, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import { quantityOrUndefined } from '../../../api/quantity';
import type { KubeObject } from '../../../api/types';
import { semanticEqual, str } from '../core/json';
import { labelSelectorValue } from '../apps/go-values';
import { labelSelectorHasInvalidLabelValue, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';

function validateCapacity(c: KubeObject, allowInvalidLabelValue: boolean): ErrorList {
  const errs = [
    ...validateObjectMeta(c.metadata, true, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateLabelSelector(c['nodeTopology'], { allowInvalidLabelValueInSelector: allowInvalidLabelValue }, Path.root('nodeTopology')),
  ];
  const className = str(c['storageClassName']);
  for (const msg of nameIsDNSSubdomain(className, false)) errs.push(invalid(Path.root('storageClassName'), className, msg));
  const raw = c['capacity'];
  const q = typeof raw === 'string' || typeof raw === 'number' ? quantityOrUndefined(String(raw)) : undefined;
  if (q && q.sign() < 0) errs.push(invalid(Path.root('capacity'), q.toString(), 'must be greater than or equal to 0'));
  return errs;
}

registerValidator('storage.k8s.io', 'CSIStorageCapacity', {
  create: (c) => validateCapacity(c, false),
  update: (c, old) => {
    const errs = [
      ...validateCapacity(c, labelSelectorHasInvalidLabelValue(old['nodeTopology'])),
      ...validateObjectMetaUpdate(c.metadata, old.metadata, Path.root('metadata')),
    ];
    if (!semanticEqual(c['nodeTopology'], old['nodeTopology'])) errs.push(invalid(Path.root('nodeTopology'), labelSelectorValue(c['nodeTopology']), 'field is immutable'));
    if (str(c['storageClassName']) !== str(old['storageClassName'])) errs.push(invalid(Path.root('storageClassName'), str(c['storageClassName']), 'field is immutable'));
    return errs;
  },
});
