/**
 * NamespaceLifecycle: nothing is created in a namespace that does not exist or is being
 * terminated, and the system namespaces cannot be deleted. It runs first, in the mutating phase,
 * as kube-apiserver orders it.
 *
 * As upstream's plugin, it looks the namespace up in its informer (here the watch cache) and
 * reads it live from storage only as a last resort: when the cache does not have it, or when
 * the namespace was deleted within the last 30 s (forceLiveLookupTTL) and the cache still calls
 * it active. A live lookup that fails with anything but NotFound is an InternalError. So with
 * etcd's quorum lost a create in an existing namespace reaches etcd (and fails there after
 * etcd's request timeout) instead of waiting on a read clientv3 retries.
 */
import { forbiddenError, internalServerError, isStatusError, notFoundError } from '../../../api/status';
import { isObject, type KubeObject } from '../../../api/types';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionPlugin } from '../types';

export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public'];

const NAMESPACES = { group: '', resource: 'namespaces' };

const isNamespace = (a: AdmissionAttributes): boolean => a.group === '' && a.kind === 'Namespace';

/** forceLiveLookupTTL: how long after a namespace's delete its lookups skip the cache. */
export const FORCE_LIVE_LOOKUP_TTL_MS = 30_000;

const phaseOf = (ns: KubeObject): unknown => (isObject(ns.status) ? ns.status.phase : undefined);

/** The plugin with its own force-live-lookup cache (one per API server, as upstream's plugin instance). */
export function createNamespaceLifecycle(): AdmissionPlugin {
  /** Namespaces deleted recently: name -> virtual ms until which lookups go live. */
  const forceLive = new Map<string, number>();
  return {
    name: 'NamespaceLifecycle',
    handles: (a) => (isNamespace(a) ? a.operation === 'DELETE' : a.namespace !== '' && (a.operation === 'CREATE' || a.operation === 'UPDATE')),
    async admit(a, ctx) {
      const now = ctx.clock.now();
      if (isNamespace(a)) {
        if (IMMORTAL_NAMESPACES.includes(a.name)) throw forbiddenError({ group: a.group, name: a.resource }, a.name, 'this namespace may not be deleted');
        for (const [name, until] of forceLive) if (until <= now) forceLive.delete(name);
        forceLive.set(a.name, now + FORCE_LIVE_LOOKUP_TTL_MS);
        return;
      }
      let ns = ctx.reader.cached(NAMESPACES).find((n) => n.metadata.name === a.namespace);
      const forced = ns !== undefined && (forceLive.get(a.namespace) ?? 0) > now && phaseOf(ns) === 'Active';
      if (!ns || forced) {
        try {
          ns = await ctx.reader.get(NAMESPACES, '', a.namespace);
        } catch (err) {
          if (isStatusError(err) && err.status.code === 404) ns = undefined;
          else throw internalServerError(err instanceof Error ? err : String(err));
        }
      }
      if (!ns) throw notFoundError({ group: '', name: 'namespaces' }, a.namespace);
      if (a.operation === 'CREATE' && phaseOf(ns) === 'Terminating') {
        const err = admissionForbidden(a, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
        err.status.details = {
          ...err.status.details,
          causes: [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }],
        };
        throw err;
      }
    },
  };
}
