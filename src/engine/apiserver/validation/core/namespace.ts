/** Namespace: name, spec.finalizers; the status and finalize subresources. */
import { invalid, Path, type ErrorList } from '../../../api/field';
import { validateNamespaceName } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { obj, str, strs } from './json';
import { validateFinalizerName, validateKubeFinalizerName, validateObjectMeta, validateObjectMetaUpdate } from './meta';

function validateNamespaceFinalizer(name: string, fldPath: Path): ErrorList {
  return [...validateFinalizerName(name, fldPath), ...validateKubeFinalizerName(name, fldPath)];
}

function validateNamespace(ns: KubeObject): ErrorList {
  const errs = validateObjectMeta(ns.metadata, false, validateNamespaceName, Path.root('metadata'));
  // Upstream reports these without an index.
  for (const f of strs(obj(ns['spec'])?.['finalizers'])) errs.push(...validateNamespaceFinalizer(f, Path.root('spec', 'finalizers')));
  return errs;
}

function validateNamespaceStatusUpdate(ns: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(ns.metadata, old.metadata, Path.root('metadata'));
  const phase = str(obj(ns['status'])?.['phase']);
  const phasePath = Path.root('status', 'Phase');
  if (!ns.metadata.deletionTimestamp) {
    if (phase !== 'Active') errs.push(invalid(phasePath, phase, "may only be 'Active' if `deletionTimestamp` is empty"));
  } else if (phase !== 'Terminating') {
    errs.push(invalid(phasePath, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
  }
  return errs;
}

/** The namespaces/finalize subresource: only spec.finalizers changes. */
export function validateNamespaceFinalizeUpdate(ns: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(ns.metadata, old.metadata, Path.root('metadata'));
  strs(obj(ns['spec'])?.['finalizers']).forEach((f, i) => errs.push(...validateNamespaceFinalizer(f, Path.root('spec', 'finalizers').index(i))));
  return errs;
}

registerValidator('', 'Namespace', {
  create: validateNamespace,
  update: (ns, old) => validateObjectMetaUpdate(ns.metadata, old.metadata, Path.root('metadata')),
  updateStatus: validateNamespaceStatusUpdate,
});
