/**
 * Keeps the language server's mirror of the cluster current (kubesim/mirrorSync): a full
 * listing once the extension's informers have synced (replace), then their watch events in
 * batches, the latest version of each object per batch. Events and Leases stay out: nothing
 * validates against them and they change all the time.
 */
import type { ResourceInfo } from '../engine/api/registry/types';
import type { GroupVersionResource, JsonObject, KubeObject } from '../engine/api/types';
import { deletedObject, type SharedIndexInformer, type SharedInformerFactory } from '../engine/client/informer';
import type { MirrorEvent, MirrorSyncParams } from '../protocol/language-server';

const LEFT_OUT = new Set(['/events', 'events.k8s.io/events', 'coordination.k8s.io/leases']);

/** Milliseconds between batches. */
const BATCH_MS = 150;

interface Fed {
  info: ResourceInfo;
  informer: SharedIndexInformer;
}

/** The resources the mirror holds: every stored one, each once (in its first registered version). */
export function mirroredResources(resources: readonly ResourceInfo[]): ResourceInfo[] {
  const seen = new Set<string>();
  const out: ResourceInfo[] = [];
  for (const info of resources) {
    if (!info.storagePrefix || !info.verbs.includes('list') || !info.verbs.includes('watch')) continue;
    if (LEFT_OUT.has(`${info.group}/${info.resource}`) || seen.has(info.storagePrefix)) continue;
    seen.add(info.storagePrefix);
    out.push(info);
  }
  return out;
}

function typed(info: ResourceInfo, obj: KubeObject): JsonObject {
  return { ...(obj as JsonObject), apiVersion: info.group ? `${info.group}/${info.version}` : info.version, kind: info.kind };
}

export class MirrorFeed {
  private readonly fed: Fed[] = [];
  private pending = new Map<string, MirrorEvent>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private live = false;
  private stopped = false;

  constructor(
    factory: SharedInformerFactory,
    resources: readonly ResourceInfo[],
    private readonly send: (params: MirrorSyncParams) => void,
  ) {
    for (const info of mirroredResources(resources)) {
      const gvr: GroupVersionResource = { group: info.group, version: info.version, resource: info.resource };
      const informer = factory.informerFor(gvr);
      const key = (o: KubeObject) => `${info.storagePrefix}/${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
      informer.addEventHandler({
        onAdd: (o) => this.queue(key(o), { type: 'ADDED', object: typed(info, o) }),
        onUpdate: (_old, o) => this.queue(key(o), { type: 'MODIFIED', object: typed(info, o) }),
        onDelete: (d) => {
          const o = deletedObject(d);
          this.queue(key(o), { type: 'DELETED', object: typed(info, o) });
        },
      });
      this.fed.push({ info, informer });
    }
  }

  /** Sends the full listing (on start, and when the language server restarts); events follow. */
  replace(): void {
    if (this.stopped) return;
    this.pending.clear();
    const events: MirrorEvent[] = [];
    for (const { info, informer } of this.fed) for (const o of informer.indexer.list()) events.push({ type: 'ADDED', object: typed(info, o) });
    this.live = true;
    this.send({ replace: true, events });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.pending.clear();
  }

  private queue(key: string, event: MirrorEvent): void {
    // Until the first listing is sent, it will carry these changes.
    if (!this.live || this.stopped) return;
    this.pending.set(key, event);
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.stopped || this.pending.size === 0) return;
    const events = [...this.pending.values()];
    this.pending = new Map();
    this.send({ events });
  }
}
