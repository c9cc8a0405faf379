/**
 * The garbage collector (pkg/controller/garbagecollector): deletes objects whose owners are gone
 * and carries out foreground and orphan deletions.
 *
 * Two queues, as upstream: attemptToDelete takes objects whose owners may be gone (their owner
 * was deleted, or an owner it names was never seen and is looked up as a "virtual" owner) and
 * owners being deleted in the foreground (which keep their foregroundDeletion finalizer until no
 * dependent blocks them); attemptToOrphan takes owners deleted with the orphan policy, strips
 * their dependents' references to them, then drops the orphan finalizer.
 *
 * Runs as system:serviceaccount:kube-system:generic-garbage-collector; events come from
 * "garbage-collector-controller".
 */
import { aggregateMessage } from '../../api/field';
import type { ResourceRegistry } from '../../api/registry';
import { StatusError } from '../../api/status';
import type { KubeObject, OwnerReference } from '../../api/types';
import type { Client } from '../../client/client';
import { CONCURRENT_SYNCS, type Controller, type ReconcileContext } from '../../client/controller';
import { isConflict, isNotFound } from '../../client/errors';
import type { EventRecorder } from '../../client/events';
import { deletedObject, type DeletedFinalStateUnknown } from '../../client/informer';
import { controlLoop, eventRecorder, type ControllerDeps } from '../util/deps';
import {
  blocksOwner,
  classifyOwner,
  classifyReferences,
  decideDeletion,
  FINALIZER_FOREGROUND,
  FINALIZER_ORPHAN,
  isBeingDeleted,
  isDeletingDependents,
  isOrphaningDependents,
  type OwnerClasses,
  type OwnerLookup,
} from './decide';
import { OwnershipGraph, type Entry } from './graph';
import { describeIdentity, identityKey, ownerIdentity, parseIdentityKey, restMapping, RestMappingError, type Identity } from './identity';
import { deleteOwnerReferencesPatch, removeFinalizerPatch, unblockOwnerReferencesPatch } from './patches';

export const GARBAGE_COLLECTOR_ACCOUNT = 'generic-garbage-collector';

/** absentOwnerCache's size: owners known to be gone, so their other dependents need no lookup. */
const ABSENT_OWNER_CACHE_SIZE = 500;

export class GarbageCollector {
  readonly attemptToDelete: Controller;
  readonly attemptToOrphan: Controller;
  private readonly graph: OwnershipGraph;
  private readonly recorder: EventRecorder;
  /** Owners only known from references that turned out to exist. */
  private readonly verifiedOwners = new Set<string>();
  private readonly absentOwners = new Set<string>();

  /** `registry`: the API server's resources, the collector's REST mapper. */
  constructor(
    deps: ControllerDeps,
    private readonly registry: ResourceRegistry,
  ) {
    this.graph = new OwnershipGraph(deps.informers, registry);
    this.recorder = eventRecorder(deps, 'garbage-collector-controller', 'garbage collector events');
    const common = { workers: CONCURRENT_SYNCS.garbagecollector ?? 20, informers: this.graph.monitors.map((m) => m.informer) };
    this.attemptToDelete = controlLoop(deps, { ...common, name: 'garbagecollector', sync: (key, ctx) => this.syncDelete(key, ctx) });
    this.attemptToOrphan = controlLoop(deps, { ...common, name: 'garbagecollector-orphan', sync: (key, ctx) => this.syncOrphan(key, ctx) });
    for (const monitor of this.graph.monitors) {
      monitor.informer.addEventHandler({
        onAdd: (obj) => this.changed(undefined, { object: obj, monitor }),
        onUpdate: (old, obj) => {
          if (old !== obj) this.changed(old, { object: obj, monitor });
        },
        onDelete: (obj) => this.removed({ object: deletedObject(obj), monitor }, obj),
      });
    }
  }

  async run(): Promise<void> {
    const loops = Promise.all([this.attemptToDelete.run(), this.attemptToOrphan.run()]);
    await Promise.all(this.graph.monitors.map((m) => m.informer.whenSynced()));
    // What arrived while the caches filled: owners never seen are looked up now.
    for (const monitor of this.graph.monitors) for (const object of monitor.informer.indexer.list()) this.checkOwners({ object, monitor });
    await loops;
  }

  shutDown(): void {
    this.attemptToDelete.shutDown();
    this.attemptToOrphan.shutDown();
  }

  private enqueueDelete(id: Identity, because?: KubeObject | DeletedFinalStateUnknown): void {
    this.attemptToDelete.enqueue(identityKey(id), because);
  }

  // --- the graph builder's reactions to informer events --------------------------------------

  private changed(old: KubeObject | undefined, entry: Entry): void {
    const obj = entry.object;
    if (old) this.unblockedOwners(old, obj);
    if (this.graph.synced()) this.checkOwners(entry);
    const id = this.graph.identity(entry);
    if (isOrphaningDependents(obj) && !(old && isOrphaningDependents(old))) {
      this.attemptToOrphan.enqueue(identityKey(id), obj);
      return;
    }
    if (isDeletingDependents(obj) && !(old && isDeletingDependents(old))) {
      for (const dep of this.graph.dependents(id.uid)) this.enqueueDelete(this.graph.identity(dep), obj);
      this.enqueueDelete(id, obj);
    }
  }

  /** References that no longer block an owner waiting for its dependents let it finish. */
  private unblockedOwners(old: KubeObject, obj: KubeObject): void {
    const now = new Map((obj.metadata.ownerReferences ?? []).map((r) => [r.uid, r]));
    for (const ref of old.metadata.ownerReferences ?? []) {
      if (ref.blockOwnerDeletion !== true || now.get(ref.uid)?.blockOwnerDeletion === true) continue;
      const owner = this.graph.byUid(ref.uid);
      if (owner && isDeletingDependents(owner.object)) this.enqueueDelete(this.graph.identity(owner), obj);
    }
  }

  /** Owners not in any cache are looked up (virtual owners); a namespaced owner in another namespace is reported. */
  private checkOwners(entry: Entry): void {
    const obj = entry.object;
    const namespace = obj.metadata.namespace ?? '';
    for (const ref of obj.metadata.ownerReferences ?? []) {
      if (this.verifiedOwners.has(ref.uid)) continue;
      const owner = this.graph.byUid(ref.uid);
      if (owner && (!owner.object.metadata.namespace || owner.object.metadata.namespace === namespace)) continue;
      if (owner && namespace === '') continue;
      if (owner) this.reportInvalidNamespace(entry, ref);
      this.enqueueDelete(ownerIdentity(ref, namespace), obj);
    }
  }

  private reportInvalidNamespace(entry: Entry, ref: OwnerReference): void {
    const id = this.graph.identity(entry);
    const invalid = describeIdentity({ apiVersion: ref.apiVersion, kind: ref.kind, namespace: id.namespace, name: ref.name, uid: ref.uid });
    this.recorder.event(
      { kind: id.kind, apiVersion: id.apiVersion, namespace: id.namespace, name: id.name, uid: id.uid },
      'Warning',
      'OwnerRefInvalidNamespace',
      `ownerRef ${invalid} does not resolve to a parent with matching namespace`,
    );
  }

  private removed(entry: Entry, because: KubeObject | DeletedFinalStateUnknown): void {
    const uid = entry.object.metadata.uid ?? '';
    const dependents = this.graph.dependents(uid);
    if (dependents.length > 0) this.rememberAbsent(uid);
    for (const dep of dependents) this.enqueueDelete(this.graph.identity(dep), because);
    for (const ref of entry.object.metadata.ownerReferences ?? []) {
      const owner = this.graph.byUid(ref.uid);
      if (owner && isDeletingDependents(owner.object)) this.enqueueDelete(this.graph.identity(owner), because);
    }
  }

  private rememberAbsent(uid: string): void {
    this.absentOwners.add(uid);
    if (this.absentOwners.size > ABSENT_OWNER_CACHE_SIZE) this.absentOwners.delete(this.absentOwners.values().next().value!);
  }

  /** An object that turned out not to exist: its dependents are looked at (a virtual delete event). */
  private vanished(id: Identity): void {
    const dependents = this.graph.dependents(id.uid);
    if (dependents.length > 0) this.rememberAbsent(id.uid);
    for (const dep of dependents) this.enqueueDelete(this.graph.identity(dep));
  }

  // --- attemptToDeleteItem ------------------------------------------------------------------

  private async syncDelete(key: string, ctx: ReconcileContext): Promise<void> {
    const id = parseIdentityKey(key);
    if (!id.virtual) {
      const cached = this.graph.byUid(id.uid);
      if (cached && isBeingDeleted(cached.object) && !isDeletingDependents(cached.object)) {
        ctx.observe('being deleted: its dependents are handled once it is gone');
        return;
      }
    }
    let mapping: ReturnType<typeof restMapping>;
    try {
      mapping = restMapping(this.registry, id.apiVersion, id.kind);
    } catch (err) {
      if (err instanceof RestMappingError) ctx.observe(err.message);
      throw err;
    }
    const latest = await this.get(ctx.client, id, mapping);
    if (!latest || latest.metadata.uid !== id.uid) {
      ctx.observe(latest ? 'a different object has the name now: its dependents are checked' : 'not found: its dependents are checked');
      this.vanished(id);
      return;
    }
    if (id.virtual) {
      this.verifiedOwners.add(id.uid);
      ctx.observe('exists');
      return;
    }
    if (isDeletingDependents(latest)) return this.processDeletingDependents(ctx, id, mapping);
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) {
      ctx.observe('no owners');
      return;
    }
    const owners = await this.classify(ctx.client, id, refs);
    if (!owners) {
      ctx.observe('a cluster-scoped object cannot have a namespaced owner');
      return;
    }
    const dependents = this.graph.dependents(id.uid);
    const decision = decideDeletion(
      { object: latest, hasDependents: dependents.length > 0, dependentDeletingDependents: dependents.some((d) => isDeletingDependents(d.object)) },
      owners,
    );
    const counts = `owners: ${owners.solid.length} solid, ${owners.dangling.length} dangling, ${owners.waiting.length} waiting for dependents`;
    const resource = ctx.client.resource(mapping.gvr, id.namespace || undefined);
    switch (decision.action) {
      case 'none':
        ctx.observe(counts);
        return;
      case 'remove-owner-references':
        ctx.observe(`${counts}: removing references to ${decision.uids.join(', ')}`);
        await resource.patch(id.name, 'strategic', deleteOwnerReferencesPatch(id.uid, decision.uids));
        return;
      case 'delete':
        ctx.observe(`${counts}: deleting (propagation ${decision.policy})`);
        if (decision.unblockOwners) await resource.patch(id.name, 'strategic', unblockOwnerReferencesPatch(latest));
        try {
          await resource.delete(id.name, { preconditions: { uid: id.uid }, propagationPolicy: decision.policy });
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
        return;
    }
  }

  private async get(client: Client, id: Identity, mapping: ReturnType<typeof restMapping>): Promise<KubeObject | undefined> {
    try {
      return await client.resource(mapping.gvr, mapping.namespaced ? id.namespace : undefined).get(id.name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /**
   * Each owner looked up (the absent owner cache first, and an owner found dangling remembered
   * there), then classified by classifyReferences; undefined when the item is cluster-scoped and
   * names a namespaced owner.
   */
  private async classify(client: Client, item: Identity, refs: readonly OwnerReference[]): Promise<OwnerClasses | undefined> {
    const lookups: OwnerLookup[] = [];
    for (const ref of refs) {
      if (this.absentOwners.has(ref.uid)) {
        lookups.push({ cachedAbsent: true });
        continue;
      }
      const mapping = restMapping(this.registry, ref.apiVersion, ref.kind);
      if (item.namespace === '' && mapping.namespaced) return undefined;
      const lookup = { owner: await this.get(client, { ...ownerIdentity(ref, mapping.namespaced ? item.namespace : '') }, mapping) };
      if (classifyOwner(ref, lookup) === 'dangling') this.rememberAbsent(ref.uid);
      lookups.push(lookup);
    }
    return classifyReferences(refs, lookups);
  }

  /** A foreground deletion: done (finalizer removed) once no dependent blocks it, else its blocking dependents go first. */
  private async processDeletingDependents(ctx: ReconcileContext, id: Identity, mapping: ReturnType<typeof restMapping>): Promise<void> {
    const blocking = this.graph.dependents(id.uid).filter((d) => blocksOwner(d.object, id.uid));
    if (blocking.length === 0) {
      ctx.observe('deleting in the foreground: no blocking dependents left, removing the foregroundDeletion finalizer');
      await this.removeFinalizer(ctx.client, id, mapping, FINALIZER_FOREGROUND);
      return;
    }
    ctx.observe(`deleting in the foreground: waiting for ${blocking.length} blocking dependents`);
    for (const dep of blocking) if (!isDeletingDependents(dep.object)) this.enqueueDelete(this.graph.identity(dep));
  }

  private async removeFinalizer(client: Client, id: Identity, mapping: ReturnType<typeof restMapping>, finalizer: string): Promise<void> {
    for (;;) {
      const current = await this.get(client, id, mapping);
      if (!current) return;
      const patch = removeFinalizerPatch(current, finalizer);
      if (!patch) return;
      try {
        await client.resource(mapping.gvr, id.namespace || undefined).patch(id.name, 'merge', patch);
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err)) throw err;
      }
    }
  }

  // --- attemptToOrphan ----------------------------------------------------------------------

  private async syncOrphan(key: string, ctx: ReconcileContext): Promise<void> {
    const id = parseIdentityKey(key);
    const mapping = restMapping(this.registry, id.apiVersion, id.kind);
    const dependents = this.graph.dependents(id.uid);
    ctx.observe(`orphaning ${dependents.length} dependents`);
    const errors: Error[] = [];
    for (const dep of dependents) {
      const depId = this.graph.identity(dep);
      try {
        await ctx.client.resource(dep.monitor.gvr, depId.namespace || undefined).patch(depId.name, 'strategic', deleteOwnerReferencesPatch(depId.uid, [id.uid]));
      } catch (err) {
        if (!(err instanceof StatusError)) throw err;
        if (!isNotFound(err)) errors.push(err);
      }
    }
    if (errors.length > 0) throw new Error(`failed to orphan dependents of owner ${describeIdentity(id)}, got errors: ${aggregateMessage(errors)}`);
    await this.removeFinalizer(ctx.client, id, mapping, FINALIZER_ORPHAN);
  }
}
