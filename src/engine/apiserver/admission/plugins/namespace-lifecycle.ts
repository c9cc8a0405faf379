/**
 * NamespaceLifecycle: nothing is created in a namespace that does not exist or is being
 * terminated, and the system namespaces cannot be deleted. It runs first, in the mutating phase,
 * as kube-apiserver orders it.
 */
import { forbiddenError, notFoundError } from '../../../api/status';
import { isObject } from '../../../api/types';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionPlugin } from '../types';

export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public'];

const NAMESPACES = { group: '', resource: 'namespaces' };

const isNamespace = (a: AdmissionAttributes): boolean => a.group === '' && a.kind === 'Namespace';

export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  handles: (a) => (isNamespace(a) ? a.operation === 'DELETE' : a.namespace !== '' && (a.operation === 'CREATE' || a.operation === 'UPDATE')),
  async admit(a, ctx) {
    if (isNamespace(a)) {
      if (IMMORTAL_NAMESPACES.includes(a.name)) throw forbiddenError({ group: a.group, name: a.resource }, a.name, 'this namespace may not be deleted');
      return;
    }
    const ns = await ctx.reader.get(NAMESPACES, '', a.namespace);
    if (!ns) throw notFoundError({ group: '', name: 'namespaces' }, a.namespace);
    const phase = isObject(ns.status) ? ns.status.phase : undefined;
    if (a.operation === 'CREATE' && phase === 'Terminating') {
      const err = admissionForbidden(a, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
      err.status.details = {
        ...err.status.details,
        causes: [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }],
      };
      throw err;
    }
  },
};
