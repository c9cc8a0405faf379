/**
 * StorageClass rules (pkg/apis/storage/validation). Everything but labels, annotations,
 * mountOptions and allowVolumeExpansion is fixed once the class exists.
 */
import { duplicate, forbidden, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { objs, str, strs } from '../core/json';
import { validateLabelName, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { parametersEqual, validateParameters, validateProvisioner } from './classes';

const reclaimPolicies = ['Delete', 'Retain'];
const bindingModes = ['Immediate', 'WaitForFirstConsumer'];

/** ValidateTopologySelectorTerm (core): keys and value sets of one term. */
function validateTopologySelectorTerm(term: Record<string, unknown>, fldPath: Path): { keys: Map<string, string[]>; errs: ErrorList } {
  const keys = new Map<string, string[]>();
  const errs: ErrorList = [];
  objs(term['matchLabelExpressions']).forEach((req, i) => {
    const idxPath = fldPath.child('matchLabelExpressions').index(i);
    const values = strs(req['values']);
    const valuesPath = idxPath.child('values');
    if (values.length === 0) errs.push(required(valuesPath, ''));
    const seen = new Set<string>();
    values.forEach((v, j) => {
      if (seen.has(v)) errs.push(duplicate(valuesPath.index(j), v));
      seen.add(v);
    });
    const key = str(req['key']);
    errs.push(...validateLabelName(key, idxPath.child('key')));
    if (keys.has(key)) errs.push(duplicate(idxPath.child('key'), key));
    keys.set(key, [...seen].sort());
  });
  return { keys, errs };
}

const termKey = (keys: Map<string, string[]>): string => JSON.stringify([...keys.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));

function validateAllowedTopologies(topologies: unknown, fldPath: Path): ErrorList {
  const terms = objs(topologies);
  const errs: ErrorList = [];
  // Upstream pre-sizes its list of seen terms with nil maps, and a nil map equals an empty term.
  const seen = terms.length > 0 ? [termKey(new Map())] : [];
  terms.forEach((term, i) => {
    const { keys, errs: termErrs } = validateTopologySelectorTerm(term, fldPath.index(i));
    errs.push(...termErrs);
    const k = termKey(keys);
    if (seen.includes(k)) errs.push(duplicate(fldPath.index(i).child('matchLabelExpressions'), ''));
    seen.push(k);
  });
  return errs;
}

function validateStorageClass(sc: KubeObject): ErrorList {
  const errs = [
    ...validateObjectMeta(sc.metadata, false, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateProvisioner(str(sc['provisioner']), Path.root('provisioner')),
    ...validateParameters(sc['parameters'], true, Path.root('parameters')),
  ];
  const reclaim = str(sc['reclaimPolicy']);
  if (reclaim !== '' && !reclaimPolicies.includes(reclaim)) errs.push(notSupported(Path.root('reclaimPolicy'), reclaim, reclaimPolicies));
  const mode = sc['volumeBindingMode'];
  if (typeof mode !== 'string') errs.push(required(Path.root('volumeBindingMode'), ''));
  else if (!bindingModes.includes(mode)) errs.push(notSupported(Path.root('volumeBindingMode'), mode, bindingModes));
  errs.push(...validateAllowedTopologies(sc['allowedTopologies'], Path.root('allowedTopologies')));
  return errs;
}

function validateStorageClassUpdate(sc: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(sc.metadata, old.metadata, Path.root('metadata'));
  if (!parametersEqual(sc['parameters'], old['parameters'])) errs.push(forbidden(Path.root('parameters'), 'updates to parameters are forbidden.'));
  if (str(sc['provisioner']) !== str(old['provisioner'])) errs.push(forbidden(Path.root('provisioner'), 'updates to provisioner are forbidden.'));
  if (str(sc['reclaimPolicy']) !== str(old['reclaimPolicy'])) errs.push(forbidden(Path.root('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  const mode = sc['volumeBindingMode'] ?? null;
  if (mode !== (old['volumeBindingMode'] ?? null)) errs.push(invalid(Path.root('volumeBindingMode'), mode, 'field is immutable'));
  return errs;
}

registerValidator('storage.k8s.io', 'StorageClass', {
  create: validateStorageClass,
  update: (sc, old) => [...validateStorageClass(sc), ...validateStorageClassUpdate(sc, old)],
});
