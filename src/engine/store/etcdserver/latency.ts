/**
 * What a request costs in virtual time: the latency model of the simulated etcd cluster and the
 * API server in front of it. Each part is one number, documented with where it comes from; the
 * `instant` model makes all of them 0 (requests then complete within the virtual instant they
 * were made, as before kubesim's etcd had Raft).
 *
 * A write to etcd therefore costs: one network hop to the member (and to the leader if the
 * member is a follower), the leader's WAL fsync in parallel with a round trip to the followers
 * and their WAL fsync before they acknowledge, and the hop back. A linearizable read costs a
 * heartbeat round trip (ReadIndex); a serializable read only the hop to the member.
 */
export interface EtcdLatency {
  /**
   * kube-apiserver's own work on each request (authentication, admission, validation,
   * encoding), before it reaches etcd. kubesim's estimate: kube-apiserver 1.35 reports most
   * single-object requests of a small cluster in its lowest latency buckets, and its pipeline is
   * of the same order as etcd's own request time.
   */
  readonly apiserverMs: number;
  /**
   * The network round trip between any two machines: the API server and a member, or two
   * members. etcd's performance guide: "The RTT within a datacenter may be as long as several
   * hundred microseconds" (op-guide/performance.md); each message takes half of it.
   */
  readonly rttMs: number;
  /**
   * One WAL fdatasync on a member's disk. etcd's performance guide: "For SSDs, the latency is
   * often lower than 1ms"; a spinning disk takes about 10 ms, the 99th percentile of
   * etcd_disk_wal_fsync_duration_seconds etcd's hardware guidance asks a disk to stay under.
   */
  readonly walFsyncMs: number;
}

/** The default model: a three-member cluster on SSDs in one datacenter. */
export const MODEL_LATENCY: EtcdLatency = Object.freeze({ apiserverMs: 1, rttMs: 0.5, walFsyncMs: 1 });

/** Every part free: requests complete in the instant they are made. */
export const INSTANT_LATENCY: EtcdLatency = Object.freeze({ apiserverMs: 0, rttMs: 0, walFsyncMs: 0 });

/**
 * The WAL fsync of a disk that "slow" makes slow: etcd warns of "slow fdatasync" from 1 s on
 * (wal.warnSyncDuration), and a member that fsyncs that slowly misses its heartbeats.
 */
export const SLOW_DISK_FSYNC_MS = 1000;

export type LatencySetting = 'model' | 'instant' | Partial<EtcdLatency>;

/** The model a setting names; a partial one overrides parts of the default model. */
export function resolveLatency(setting: LatencySetting | undefined): EtcdLatency {
  if (setting === undefined || setting === 'model') return MODEL_LATENCY;
  if (setting === 'instant') return INSTANT_LATENCY;
  const out = { ...MODEL_LATENCY, ...setting };
  for (const [k, v] of Object.entries(out)) {
    if (!(typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 60_000)) throw new RangeError(`etcd latency ${k} must be a number of milliseconds from 0 to 60000, got ${String(v)}`);
  }
  return Object.freeze(out);
}

export function isInstant(l: EtcdLatency): boolean {
  return l.apiserverMs === 0 && l.rttMs === 0 && l.walFsyncMs === 0;
}
