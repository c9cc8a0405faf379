/**
 * A saved cluster, as the workspace storage and Export / Import Cluster Snapshot keep it: the
 * etcd data (every key with its revisions, the history since the last compaction, leases), the
 * virtual time, the seed, the machines and whether their kubelets run, the clock's state, and
 * where the trace stood.
 * Everything else (controllers, scheduler, kubelets) starts again from the API's state.
 */
import type { NodeConfig } from '../engine/kubelet/config';
import { STORE_SNAPSHOT_FORMAT, type StoreSnapshot } from '../engine/store/snapshot';

export const CLUSTER_SNAPSHOT_FORMAT = 'kubesim/cluster-snapshot@1';

export interface SavedNode {
  config: NodeConfig;
  running: boolean;
}

export interface ClusterSnapshot {
  format: typeof CLUSTER_SNAPSHOT_FORMAT;
  seed: string;
  /** Virtual time, ms since the epoch. */
  time: number;
  clock: { state: 'running' | 'paused'; speed: number };
  nodes: SavedNode[];
  store: StoreSnapshot;
  /**
   * The id the trace's next record got when the snapshot was taken. The workspace's saved
   * cluster keeps the records themselves beside the file (trace-log.ts); an exported snapshot
   * carries none.
   */
  trace?: { next: number };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isNode(v: unknown): v is SavedNode {
  if (!isRecord(v) || typeof v.running !== 'boolean' || !isRecord(v.config)) return false;
  const c = v.config;
  return typeof c.name === 'string' && typeof c.internalIP === 'string' && typeof c.podCIDR === 'string';
}

/** The snapshot in a file's text; throws an Error that says what is wrong with it. */
export function parseClusterSnapshot(text: string): ClusterSnapshot {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`not a KubeSim cluster snapshot: ${err instanceof Error ? err.message : String(err)}`);
  }
  return checkClusterSnapshot(value);
}

/** The value as a snapshot (parsed JSON, or one handed to the engine worker); throws an Error that says what is wrong with it. */
export function checkClusterSnapshot(value: unknown): ClusterSnapshot {
  if (!isRecord(value) || value.format !== CLUSTER_SNAPSHOT_FORMAT) throw new Error(`not a KubeSim cluster snapshot (expected format ${CLUSTER_SNAPSHOT_FORMAT})`);
  const { seed, time, clock, nodes, store } = value;
  if (typeof seed !== 'string' || typeof time !== 'number' || !Number.isFinite(time)) throw new Error('cluster snapshot: bad seed or time');
  if (!isRecord(clock) || (clock.state !== 'running' && clock.state !== 'paused') || typeof clock.speed !== 'number') throw new Error('cluster snapshot: bad clock state');
  if (!Array.isArray(nodes) || !nodes.every(isNode)) throw new Error('cluster snapshot: bad nodes');
  if (!isRecord(store) || store.format !== STORE_SNAPSHOT_FORMAT) throw new Error(`cluster snapshot: the store is not a ${STORE_SNAPSHOT_FORMAT} snapshot`);
  const trace = value.trace;
  if (trace !== undefined && (!isRecord(trace) || !Number.isInteger(trace.next) || (trace.next as number) < 1)) throw new Error('cluster snapshot: bad trace position');
  return value as unknown as ClusterSnapshot;
}

export function serializeClusterSnapshot(snapshot: ClusterSnapshot): string {
  return [...snapshotJsonChunks(snapshot)].join('');
}

/**
 * The snapshot's JSON a piece at a time (each piece about `perPiece` records), so that writing
 * a big cluster never holds the extension host for long: the pieces are made as they are written.
 */
export function* snapshotJsonChunks(snapshot: ClusterSnapshot, perPiece = 2000): Generator<string> {
  const { store, ...cluster } = snapshot;
  const { base, log, ...header } = store;
  const head = JSON.stringify({ ...cluster, store: header });
  // The head ends with "}}"; the records go into the store object before those braces.
  yield `${head.slice(0, -2)},"base":[`;
  for (let i = 0; i < base.length; i += perPiece) yield (i > 0 ? ',' : '') + base.slice(i, i + perPiece).map((r) => JSON.stringify(r)).join(',');
  yield '],"log":[';
  let count = 0;
  let piece: string[] = [];
  for (let i = 0; i < log.length; i++) {
    piece.push(JSON.stringify(log[i]));
    count += log[i]!.length;
    if (count >= perPiece) {
      yield (i + 1 > piece.length ? ',' : '') + piece.join(',');
      piece = [];
      count = 0;
    }
  }
  if (piece.length > 0) yield (log.length > piece.length ? ',' : '') + piece.join(',');
  yield ']}}';
}
