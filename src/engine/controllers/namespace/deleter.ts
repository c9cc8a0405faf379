/**
 * The namespaced resources deleter (pkg/controller/namespace/deletion): for a namespace marked
 * for deletion, delete every namespaced resource in it (a collection delete with background
 * propagation, or item by item where collections cannot be deleted), check what is left, record
 * the deletion conditions, and once nothing is left remove the `kubernetes` finalizer through
 * the finalize subresource. Content that is still going away (pods in their grace period, objects
 * held by finalizers) makes the sync fail with ResourcesRemainingError and its estimate.
 */
import { aggregateMessage } from '../../api/field';
import type { ResourceRegistry } from '../../api/registry';
import { StatusError } from '../../api/status';
import type { GroupVersionResource, KubeObject } from '../../api/types';
import type { Clock } from '../../clock';
import type { Client } from '../../client/client';
import { deepCopy } from '../../client/clone';
import { isConflict, isNotFound } from '../../client/errors';
import { NAMESPACES, PODS } from '../../client/resources';
import { failureConditions, updateConditions, type ContentReport } from './conditions';
import { FINALIZER_ESTIMATE_SECONDS, podsGracePeriodEstimate, remainingEstimate } from './estimate';
import { deletableResources, gvrString, type DeletableResource } from './resources';
import { FINALIZER_KUBERNETES, type Namespace } from '../util/types/namespace';

export class ResourcesRemainingError extends Error {
  constructor(readonly estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
  }
}

interface ResourceOutcome {
  estimate: number;
  remaining: number;
  finalizers: Map<string, number>;
  error?: string;
}

const isUnsupported = (err: unknown): boolean => isNotFound(err) || (err instanceof StatusError && err.code === 405);

const BACKGROUND = { propagationPolicy: 'Background' as const };

export class NamespacedResourcesDeleter {
  /** Operations a resource turned out not to support ("list|apps/deployments"). */
  private readonly unsupported = new Set<string>();
  private readonly resources: DeletableResource[];

  constructor(
    registry: ResourceRegistry,
    private readonly clock: Clock,
  ) {
    this.resources = deletableResources(registry);
    for (const r of this.resources) {
      if (!r.list) this.unsupported.add(opKey('list', r.gvr));
      if (!r.deleteCollection) this.unsupported.add(opKey('deletecollection', r.gvr));
    }
  }

  /** Resolves when the namespace is finalized (or gone, or not being deleted). */
  async delete(client: Client, name: string): Promise<void> {
    const namespaces = client.resource<Namespace>(NAMESPACES);
    let ns: Namespace;
    try {
      ns = await namespaces.get(name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (!ns.metadata.deletionTimestamp) return;
    try {
      ns = await this.retryOnConflict(client, ns, (current) => this.markTerminating(client, current));
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (!ns.metadata.deletionTimestamp) return;
    if ((ns.spec?.finalizers ?? []).length === 0) return;
    const estimate = await this.deleteAllContent(client, ns);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);
    try {
      await this.retryOnConflict(client, ns, (current) => this.finalize(client, current));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private async retryOnConflict(client: Client, ns: Namespace, fn: (ns: Namespace) => Promise<Namespace>): Promise<Namespace> {
    let latest = ns;
    for (;;) {
      try {
        return await fn(latest);
      } catch (err) {
        if (!isConflict(err)) throw err;
      }
      const previous = latest;
      latest = await client.resource<Namespace>(NAMESPACES).get(ns.metadata.name ?? '');
      if (previous.metadata.uid !== latest.metadata.uid) throw new Error('namespace uid has changed across retries');
    }
  }

  private async markTerminating(client: Client, ns: Namespace): Promise<Namespace> {
    if (!ns.metadata.deletionTimestamp || ns.status?.phase === 'Terminating') return ns;
    const next = deepCopy(ns);
    next.status = { ...next.status, phase: 'Terminating' };
    return client.resource<Namespace>(NAMESPACES).updateStatus(next);
  }

  private async finalize(client: Client, ns: Namespace): Promise<Namespace> {
    const next = deepCopy(ns);
    const rest = [...new Set((ns.spec?.finalizers ?? []).filter((f) => f !== FINALIZER_KUBERNETES))].sort();
    next.spec = { ...next.spec, finalizers: rest };
    try {
      const body = await client.send({ group: '', version: 'v1', resource: 'namespaces', name: ns.metadata.name, subresource: 'finalize', verb: 'update', body: { object: next } });
      return body as Namespace;
    } catch (err) {
      if (isNotFound(err)) return ns;
      throw err;
    }
  }

  /** Deletes everything in the namespace; the longest estimate of what is still going away. */
  private async deleteAllContent(client: Client, ns: Namespace): Promise<number> {
    const namespace = ns.metadata.name ?? '';
    const deletedAt = Date.parse(ns.metadata.deletionTimestamp ?? '');
    const errors: Error[] = [];
    const report: ContentReport = { deleteErrors: [], remainingByResource: new Map(), remainingByFinalizer: new Map() };
    let estimate = 0;
    for (const { gvr } of this.resources) {
      let outcome: ResourceOutcome;
      try {
        outcome = await this.deleteResource(client, gvr, namespace, deletedAt);
      } catch (err) {
        if (!(err instanceof Error) || err instanceof TypeError) throw err;
        outcome = { estimate: 0, remaining: 0, finalizers: new Map(), error: err.message };
      }
      if (outcome.error !== undefined) {
        errors.push(new Error(outcome.error));
        report.deleteErrors.push(outcome.error);
      }
      estimate = Math.max(estimate, outcome.estimate);
      if (outcome.remaining > 0) {
        report.remainingByResource.set(`${gvr.resource}.${gvr.group}`, outcome.remaining);
        for (const [f, n] of outcome.finalizers) report.remainingByFinalizer.set(f, (report.remainingByFinalizer.get(f) ?? 0) + n);
      }
    }
    const now = this.clock.rfc3339();
    const { conditions, changed } = updateConditions(ns.status?.conditions ?? [], failureConditions(report, now), now);
    if (changed) {
      const next = deepCopy(ns);
      next.status = { ...next.status, conditions };
      try {
        await client.resource<Namespace>(NAMESPACES).updateStatus(next);
      } catch (err) {
        if (!(err instanceof StatusError)) throw err;
      }
    }
    if (errors.length > 0) throw new Error(aggregateMessage(errors));
    return estimate;
  }

  private async deleteResource(client: Client, gvr: GroupVersionResource, namespace: string, deletedAt: number): Promise<ResourceOutcome> {
    const resource = client.resource(gvr, namespace);
    let estimate = 0;
    if (gvr.group === '' && gvr.resource === 'pods') {
      const pods = await client.resource(PODS, namespace).list();
      estimate = remainingEstimate(podsGracePeriodEstimate(pods.items), deletedAt, this.clock.now());
    }
    const fail = (error: unknown, remaining = 0): ResourceOutcome => ({ estimate, remaining, finalizers: new Map(), error: error instanceof Error ? error.message : String(error) });
    let collectionDeleted = false;
    if (!this.unsupported.has(opKey('deletecollection', gvr))) {
      try {
        await resource.deleteCollection(BACKGROUND);
        collectionDeleted = true;
      } catch (err) {
        if (!isUnsupported(err)) return fail(err);
      }
    }
    if (!collectionDeleted) {
      const items = await this.list(client, gvr, namespace).catch((err: unknown) => err as Error);
      if (items instanceof Error) return fail(items);
      for (const item of items ?? []) {
        try {
          await resource.delete(item.metadata.name ?? '', BACKGROUND);
        } catch (err) {
          if (!isNotFound(err) && !(err instanceof StatusError && err.code === 405)) return fail(err);
        }
      }
    }
    const left = await this.list(client, gvr, namespace).catch((err: unknown) => err as Error);
    if (left instanceof Error) return fail(left);
    if (left === undefined || left.length === 0) return { estimate: left === undefined ? estimate : 0, remaining: 0, finalizers: new Map() };
    const finalizers = new Map<string, number>();
    for (const item of left) for (const f of item.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    if (estimate !== 0) return { estimate, remaining: left.length, finalizers };
    if (finalizers.size > 0) return { estimate: FINALIZER_ESTIMATE_SECONDS, remaining: left.length, finalizers };
    return { ...fail(`unexpected items still remain in namespace: ${namespace} for gvr: ${gvrString(gvr)}`), remaining: left.length };
  }

  /** The namespace's items of a resource; undefined when it cannot be listed. */
  private async list(client: Client, gvr: GroupVersionResource, namespace: string): Promise<KubeObject[] | undefined> {
    const key = opKey('list', gvr);
    if (this.unsupported.has(key)) return undefined;
    try {
      return (await client.resource(gvr, namespace).list()).items;
    } catch (err) {
      if (!isUnsupported(err)) throw err;
      this.unsupported.add(key);
      return undefined;
    }
  }
}

function opKey(op: 'list' | 'deletecollection', gvr: GroupVersionResource): string {
  return `${op}|${gvr.group}/${gvr.version}/${gvr.resource}`;
}
