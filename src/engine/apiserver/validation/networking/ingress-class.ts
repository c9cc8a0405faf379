/**
 * IngressClass rules (pkg/apis/networking/validation): a domain-prefixed controller name that
 * never changes, and an optional parameters reference scoped to the cluster or a namespace.
 */
import { forbidden, invalid, notSupported, Path, required, tooLong, type ErrorList } from '../../../api/field';
import { isDomainPrefixedPath, nameIsDNSSubdomain, validateNamespaceName } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { obj, str } from '../core/json';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { validateTypedLocalObjectReference } from './ingress';

const maxLenIngressClassController = 250;
const scopes = ['Cluster', 'Namespace'];

function validateParameters(params: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs = validateTypedLocalObjectReference(params, fldPath);
  const scope = params['scope'];
  if (typeof scope !== 'string') return [...errs, required(fldPath.child('scope'), '')];
  if (!scopes.includes(scope)) return [...errs, notSupported(fldPath.child('scope'), scope, scopes)];
  const namespace = params['namespace'];
  if (scope === 'Namespace') {
    if (typeof namespace !== 'string') errs.push(required(fldPath.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else for (const msg of validateNamespaceName(namespace, false)) errs.push(invalid(fldPath.child('namespace'), namespace, msg));
  }
  if (scope === 'Cluster' && typeof namespace === 'string') errs.push(forbidden(fldPath.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

function validateIngressClass(ic: KubeObject): ErrorList {
  const spec = obj(ic['spec']) ?? {};
  const controller = str(spec['controller']);
  const errs = validateObjectMeta(ic.metadata, false, nameIsDNSSubdomain, Path.root('metadata'));
  if (controller.length > maxLenIngressClassController) errs.push(tooLong(Path.root('spec', 'controller'), maxLenIngressClassController));
  errs.push(...isDomainPrefixedPath(Path.root('spec', 'controller'), controller));
  const params = obj(spec['parameters']);
  if (params) errs.push(...validateParameters(params, Path.root('spec', 'parameters')));
  return errs;
}

registerValidator('networking.k8s.io', 'IngressClass', {
  create: validateIngressClass,
  update: (ic, old) => [
    ...validateObjectMetaUpdate(ic.metadata, old.metadata, Path.root('metadata')),
    ...validateImmutableField(str(obj(ic['spec'])?.['controller']), str(obj(old['spec'])?.['controller']), Path.root('spec', 'controller')),
    ...validateIngressClass(ic),
  ],
});
