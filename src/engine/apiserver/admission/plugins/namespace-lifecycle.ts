/**
 * NamespaceLifecycle: nothing is created in a namespace that does not exist or is being
 * terminated, and the system namespaces cannot be deleted. It runs first, in the mutating phase,
 * as kube-apiserver orders it.
 */
import { forbiddenError, notFoundError } from '../../../api/status';
import { isObject } from '../../../api/types';
import { admissionForbidden } from '../errors';
import type { AdmissionPlugin } from '../types';

export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public'];

const NAMESPACES = { group: '', resource: 'namespaces' };

export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
  async admit(a, ctx) {
    const isNamespace = a.group === '' && a.kind === 'Namespace';
    if (a.operation === 'DELETE' && isNamespace && IMMORTAL_NAMESPACES.includes(a.name)) {
      throw forbiddenError({ group: a.group, name: a.resource }, a.name, 'this namespace may not be deleted');
    }
    if (isNamespace || !a.namespace || a.operation === 'DELETE') return;
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
