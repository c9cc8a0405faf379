/**
 * The language server's picture of the live cluster: an in-memory API server that starts as a
 * fresh cluster does (system namespaces, RBAC bootstrap policy, default service accounts) and is
 * kept current by the extension, which forwards the live cluster's watch events. Documents are
 * sent to it as the Apply command sends them, in dry run, so an object that exists is checked as
 * the apply it would get: its copy carries the live object's managedFields (sync.ts).
 */
import { createValidationCluster } from '../../engine/validator/validator';
import { ADMIN_USER } from '../../engine/apiserver/authn/user';
import type { ApiServer } from '../../engine/apiserver/server';
import { isObject } from '../../engine/api/types';
import { Clock } from '../../engine/clock';
import { createStore, type Store } from '../../engine/store';
import type { MirrorEvent, MirrorStateResult, MirrorSyncParams } from '../../protocol/language-server';
import { isContextKind } from '../validation/dependencies';
import { forkServer } from './fork';
import { objectRef, putObject, removeObject, type ObjectRef } from './sync';

const MAX_REJECTIONS_KEPT = 50;
const UID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Events applied between yields to the event loop, so a large relist does not stall requests. */
const EVENTS_PER_SLICE = 25;

export function refKey(ref: ObjectRef): string {
  return `${ref.info.group}/${ref.info.kind}/${ref.namespace}/${ref.name}`;
}

export class MirrorCluster {
  /** Bumped by every applied change. */
  sequence = 0;
  /** Bumped when an object changes that admission reads for other objects (see dependencies.ts). */
  contextGeneration = 0;
  private applied = 0;
  private readonly rejected: MirrorStateResult['rejected'] = [];
  private readonly changedAt = new Map<string, number>();
  /** The live uid of each copy (by the copy's uid), and the copy's uid of each object (by ref key). */
  private readonly liveUids = new Map<string, string>();
  private readonly copyUids = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    readonly server: ApiServer,
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  static async create(): Promise<MirrorCluster> {
    const clock = new Clock();
    const store = createStore({ backend: 'memory', clock });
    return new MirrorCluster(await createValidationCluster('kubesim-mirror', clock, store), store, clock);
  }

  /** The `sequence` at which the object with this identity last changed (0: never). */
  lastChange(identity: string): number {
    return this.changedAt.get(identity) ?? 0;
  }

  /** Applies a batch after the batches before it. */
  sync(params: MirrorSyncParams): Promise<void> {
    this.queue = this.queue.then(() => (params.replace ? this.replace(params.events) : this.applyAll(params.events)));
    return this.queue;
  }

  /** Resolves once every batch received so far is applied. */
  async state(): Promise<MirrorStateResult> {
    await this.queue;
    return { applied: this.applied, rejected: [...this.rejected] };
  }

  /** A private copy to create a manifest's objects in (see fork.ts). */
  fork(): Promise<ApiServer> {
    return forkServer(this.store);
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private async applyAll(events: readonly MirrorEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i++) {
      if (i > 0 && i % EVENTS_PER_SLICE === 0) await new Promise((r) => setImmediate(r));
      await this.apply(events[i]!);
    }
    await this.deliverWatches();
  }

  /**
   * The mirror's clock never runs on its own: deliver the store's watch events now, so that the
   * API server's watch caches (which admission policies are read from) hold what was applied.
   */
  private deliverWatches(): Promise<number> {
    return this.clock.advance(0);
  }

  /**
   * The text with the uids of the mirror's copies replaced by the live objects' uids: the API
   * server gives each copy a uid of its own, and errors that print one (a Job's template labels,
   * a uid precondition) are to read as the live cluster would write them.
   */
  liveText(text: string): string {
    if (this.liveUids.size === 0) return text;
    return text.replace(UID, (uid) => this.liveUids.get(uid) ?? uid);
  }

  private async apply(event: MirrorEvent): Promise<void> {
    const ref = objectRef(this.server, event.object);
    if (!ref) return;
    let message: string | undefined;
    if (event.type === 'DELETED') {
      message = await removeObject(this.server, ref);
      this.forgetUid(refKey(ref));
    } else {
      const put = await putObject(this.server, ref, event.object);
      message = put.refused;
      const live = isObject(event.object.metadata) ? event.object.metadata.uid : undefined;
      this.forgetUid(refKey(ref));
      if (put.uid && typeof live === 'string' && live !== '') {
        this.liveUids.set(put.uid, live);
        this.copyUids.set(refKey(ref), put.uid);
      }
    }
    this.applied++;
    if (message) {
      this.rejected.push({ key: refKey(ref), message });
      if (this.rejected.length > MAX_REJECTIONS_KEPT) this.rejected.shift();
    }
    this.changed(ref);
  }

  private forgetUid(key: string): void {
    const copy = this.copyUids.get(key);
    if (copy === undefined) return;
    this.liveUids.delete(copy);
    this.copyUids.delete(key);
  }

  private changed(ref: ObjectRef): void {
    this.sequence++;
    this.changedAt.set(refKey(ref), this.sequence);
    if (isContextKind(ref.info.group, ref.info.kind) || (ref.info.group === '' && ref.info.kind === 'Service')) this.contextGeneration++;
  }

  /** A full listing: what the mirror holds beyond it goes; namespaces come first, terminating objects last. */
  private async replace(events: readonly MirrorEvent[]): Promise<void> {
    const listed = new Set<string>();
    for (const e of events) {
      const ref = objectRef(this.server, e.object);
      if (ref) listed.add(refKey(ref));
    }
    for (const ref of await this.storedObjects()) {
      if (listed.has(refKey(ref))) continue;
      await removeObject(this.server, ref);
      this.forgetUid(refKey(ref));
      this.changed(ref);
    }
    const rank = (e: MirrorEvent): number => {
      const meta = e.object.metadata as { deletionTimestamp?: unknown } | undefined;
      if (meta?.deletionTimestamp) return 3;
      if (e.object.apiVersion === 'v1' && e.object.kind === 'Namespace') return 0;
      const ref = objectRef(this.server, e.object);
      return ref && isContextKind(ref.info.group, ref.info.kind) ? 1 : 2;
    };
    await this.applyAll([...events].sort((a, b) => rank(a) - rank(b)));
  }

  private async storedObjects(): Promise<ObjectRef[]> {
    const refs: ObjectRef[] = [];
    const seen = new Set<string>();
    for (const info of this.server.registry.all()) {
      if (!info.storagePrefix || !info.verbs.includes('list') || seen.has(info.storagePrefix)) continue;
      seen.add(info.storagePrefix);
      const res = await this.server.handle({ verb: 'list', group: info.group, version: info.version, resource: info.resource, user: ADMIN_USER });
      const items = Array.isArray(res.body.items) ? res.body.items : [];
      for (const item of items) {
        const ref = objectRef(this.server, { ...(item as object), apiVersion: info.group ? `${info.group}/${info.version}` : info.version, kind: info.kind });
        if (ref) refs.push(ref);
      }
    }
    return refs;
  }
}
