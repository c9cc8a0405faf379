/**
 * What the control-plane panel's webview is fed, on the engine's side (no vscode import: it runs
 * beside the cluster, in the engine worker, and in plain node for tests): on each sync the
 * records the trace buffer still holds then live ones in batches (RecordBatcher), the state
 * log's history then its changes, the etcd view's frames, and the answers to time-travel and
 * details reads. Everything it sends is a HostMessage of src/protocol/panel.ts, handed to `post`.
 * Only messages the panel already checked (parseWebviewMessage) reach it.
 */
import type { TraceRecord } from '../../engine/trace/types';
import type { StateChange } from '../../protocol/cluster-state';
import type { GetDetailsMessage, GetRevisionMessage, HostMessage, PanelRecord } from '../../protocol/panel';
import type { EtcdFrameMessage, EtcdResetMessage } from '../../protocol/etcd';
import { setOwn } from '../../engine/api/own';
import { RecordBatcher } from './batcher';
import { EtcdFeed } from './etcd-feed';
import { readDetails } from './details';
import { objectAtRevision } from './time-travel';
import type { PanelCluster } from './host';

/** Records per message and milliseconds between messages (docs/architecture.md, invariant 8). */
const MAX_BATCH = 2000;
const BATCH_INTERVAL_MS = 50;
/** State changes are small: larger batches, so a 300,000-change history syncs in about a second. */
const MAX_STATE_BATCH = 10_000;
const STATE_INTERVAL_MS = 30;

/** The panel's link to its feed, wherever the feed runs. */
export interface PanelConnection {
  /** The webview (re)loaded and asked for a sync. */
  sync(): Promise<void>;
  /** The webview is gone (hidden): nothing flows until the next sync. */
  hidden(): Promise<void>;
  /** A time-travel or details read; the answer comes as a HostMessage. */
  read(message: GetRevisionMessage | GetDetailsMessage): Promise<void>;
  dispose(): Promise<void>;
}

export class PanelFeed implements PanelConnection {
  private readonly batcher: RecordBatcher<PanelRecord>;
  private readonly stateBatcher: RecordBatcher<StateChange>;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeState: () => void;
  private etcdFeed: EtcdFeed | undefined;
  private live = false;

  /**
   * `ready`: whether the webview's side can take the next batch (the engine worker's channel to
   * the extension host says no while its last message is not handled): until then records and
   * state changes wait in their bounded batchers instead of piling up in front of replies.
   */
  constructor(
    private readonly cluster: PanelCluster,
    private readonly post: (message: HostMessage) => void,
    ready: () => boolean = () => true,
  ) {
    // Bounded by the buffer: more queued records than it holds would have fallen off anyway.
    this.batcher = new RecordBatcher<PanelRecord>((records, dropped) => this.post({ type: 'records', records, dropped }), {
      maxBatch: MAX_BATCH,
      intervalMs: BATCH_INTERVAL_MS,
      capacity: cluster.trace.capacity,
      ready,
    });
    this.unsubscribe = cluster.trace.subscribe((record) => {
      if (this.live) this.batcher.push(record as PanelRecord);
    });
    const log = cluster.state;
    // A webview that fell so far behind that changes were dropped gets the whole history again:
    // a history with a hole would draw states that never were.
    this.stateBatcher = new RecordBatcher<StateChange>(
      (changes, dropped) => (dropped > 0 ? this.syncState() : this.post({ type: 'state', changes, heldFrom: log.heldFrom, heldFromTime: log.heldFromTime })),
      { maxBatch: MAX_STATE_BATCH, intervalMs: STATE_INTERVAL_MS, capacity: 2 * log.capacity, ready },
    );
    this.unsubscribeState = log.subscribe((change) => {
      if (this.live) this.stateBatcher.push(change);
    });
  }

  async sync(): Promise<void> {
    const { trace, client } = this.cluster;
    this.batcher.clear();
    this.live = true;
    const records: readonly TraceRecord[] = trace.records();
    const kinds: Record<string, string> = {};
    for (const r of client.server.registry.all()) if (!Object.hasOwn(kinds, `${r.group}/${r.resource}`)) setOwn(kinds, `${r.group}/${r.resource}`, r.kind);
    this.post({ type: 'reset', capacity: trace.capacity, firstId: Math.max(1, trace.next - trace.capacity), total: records.length, kinds });
    this.batcher.pushAll(records as readonly PanelRecord[]);
    this.syncState();
    this.stopEtcdFeed();
    const now = this.cluster.now ?? (() => Date.now());
    const server = this.cluster.client.server;
    this.etcdFeed = new EtcdFeed(this.cluster.etcd, now, (m: EtcdFrameMessage | EtcdResetMessage) => this.post(m), undefined, () => server.watchCacheStatus());
    this.etcdFeed.reset();
  }

  async hidden(): Promise<void> {
    this.live = false;
    this.batcher.clear();
    this.stateBatcher.clear();
    this.stopEtcdFeed();
  }

  async read(message: GetRevisionMessage | GetDetailsMessage): Promise<void> {
    const { client, logs } = this.cluster;
    if (message.type === 'getDetails') {
      this.post(await readDetails(client, logs, message));
      return;
    }
    const read = (revision: number) => objectAtRevision(client, message, revision).catch((err: unknown) => ({ state: 'error' as const, revision, code: 500, message: String(err) }));
    const [at, before] = await Promise.all([read(message.revision), read(message.revision - 1)]);
    this.post({ type: 'revision', requestId: message.requestId, at, before });
  }

  async dispose(): Promise<void> {
    await this.hidden();
    this.unsubscribe();
    this.unsubscribeState();
  }

  private syncState(): void {
    this.stateBatcher.clear();
    const snapshot = this.cluster.state.snapshot();
    this.post({ type: 'state.reset', heldFrom: snapshot.heldFrom, heldFromTime: snapshot.heldFromTime, capacity: snapshot.capacity, total: snapshot.changes.length });
    this.stateBatcher.pushAll(snapshot.changes);
  }

  private stopEtcdFeed(): void {
    this.etcdFeed?.dispose();
    this.etcdFeed = undefined;
  }
}
