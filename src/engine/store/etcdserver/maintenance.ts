/**
 * An operator's maintenance of the simulated etcd, the one home of these steps: what
 * `etcdctl compaction $(current revision)`, `etcdctl defrag` and `etcdctl alarm disarm` do, each
 * recorded in the trace (etcd.maintenance) with what it changed, so a NOSPACE run can be driven
 * and recovered from the CLI (`--etcd-maintenance`), the gRPC facade (etcdctl itself) and the
 * tests alike.
 *
 * - compact: a linearizable read of the current revision, then Compact at it (through Raft, as
 *   kube-apiserver's compactor or etcdctl compacts): every member frees the older revisions'
 *   pages inside its bbolt file, which keeps its size.
 * - defrag: one member's (or, without a member, each member's in turn, as `etcdctl defrag
 *   --cluster`) bbolt file rewritten with only what it holds (etcd's Defragment, a
 *   local operation, not through Raft): only that member's dbSize shrinks.
 * - disarm: every active alarm deactivated through Raft (etcdctl alarm disarm); a NOSPACE alarm
 *   disarmed while a member is still over its quota is raised again by the next write.
 */
import type { Clock } from '../../clock';
import type { TraceBuffer } from '../../trace/buffer';
import type { EtcdMaintenanceRecord } from '../../trace/etcd';
import { StoreError } from '../types';
import type { EtcdClient } from './client';
import { alarmText, type EtcdCluster } from './cluster';

export type MaintenanceAction = EtcdMaintenanceRecord['action'];
export const MAINTENANCE_ACTIONS: readonly MaintenanceAction[] = ['compact', 'defrag', 'disarm'];

/**
 * What one step did (the "maintenance" list of `--output json`'s "etcd" block): the fields of its
 * trace record (time: virtual ms when it finished), without the line for people.
 */
export type MaintenanceResult = Pick<EtcdMaintenanceRecord, 'time' | 'action' | 'member' | 'revision' | 'dbSizeBeforeBytes' | 'dbSizeAfterBytes' | 'dbSizeInUseBytes' | 'alarms' | 'error'>;

function record(trace: TraceBuffer | undefined, r: Omit<EtcdMaintenanceRecord, 'type' | 'component' | 'id' | 'time'>): void {
  trace?.emit<EtcdMaintenanceRecord>({ type: 'etcd.maintenance', component: 'etcdctl', ...r });
}

function message(err: unknown): string {
  if (err instanceof StoreError) return err.message;
  throw err;
}

/**
 * Defragments one member (a name, or `leader`): what etcd's Maintenance.Defragment does on the
 * member a client is connected to. Throws the StoreError a stopped member gives.
 */
export function defragmentMember(cluster: EtcdCluster, target: string, trace: TraceBuffer | undefined, clock: Clock): MaintenanceResult {
  const m = cluster.resolve(target);
  if (!m.isRunning()) throw new StoreError('unavailable');
  const before = m.mvcc.dbSizeBytes;
  m.mvcc.defragment();
  const after = m.mvcc.dbSizeBytes;
  const inUse = m.mvcc.dbSizeInUseBytes;
  record(trace, {
    action: 'defrag',
    member: m.name,
    dbSizeBeforeBytes: before,
    dbSizeAfterBytes: after,
    dbSizeInUseBytes: inUse,
    detail: `defragmented ${m.name}: its database file went from ${before} to ${after} bytes (${inUse} in use)`,
  });
  return { time: clock.now(), action: 'defrag', member: m.name, dbSizeBeforeBytes: before, dbSizeAfterBytes: after, dbSizeInUseBytes: inUse };
}

/**
 * Runs one step through kube-apiserver's etcd client. Never throws an etcd error: a step that
 * fails (no quorum, a stopped member) is recorded and returned with etcd's text.
 */
export async function runMaintenance(client: EtcdClient, step: { action: MaintenanceAction; member?: string }, trace: TraceBuffer | undefined, clock: Clock): Promise<MaintenanceResult[]> {
  const fail = (detail: string, err: unknown, extra: { member?: string; revision?: number } = {}): MaintenanceResult => {
    const error = message(err);
    record(trace, { action: step.action, ...extra, error, detail: `${detail} failed: ${error}` });
    return { time: clock.now(), action: step.action, ...extra, error };
  };
  switch (step.action) {
    case 'compact': {
      let revision: number;
      try {
        revision = (await client.status()).revision;
      } catch (err) {
        return [fail('compaction at the current revision', err)];
      }
      try {
        await client.compact(revision);
      } catch (err) {
        return [fail(`compaction at revision ${revision}`, err, { revision })];
      }
      record(trace, { action: 'compact', revision, detail: `compacted etcd at revision ${revision}: older revisions are gone, their pages free inside each member's file (only a defrag shrinks it)` });
      return [{ time: clock.now(), action: 'compact', revision }];
    }
    case 'defrag': {
      const targets = step.member !== undefined ? [step.member] : client.cluster.members.map((m) => m.name);
      const out: MaintenanceResult[] = [];
      for (const t of targets) {
        try {
          out.push(defragmentMember(client.cluster, t, trace, clock));
        } catch (err) {
          out.push(fail(`defragmentation of ${t}`, err, { member: t }));
        }
      }
      return out;
    }
    case 'disarm': {
      try {
        const disarmed = (await client.alarmDisarmAll()).map(alarmText);
        record(trace, { action: 'disarm', alarms: disarmed, detail: disarmed.length === 0 ? 'alarm disarm: no alarm was active' : `alarm disarm: ${disarmed.map((a) => a.trim()).join(', ')}` });
        return [{ time: clock.now(), action: 'disarm', alarms: disarmed }];
      } catch (err) {
        return [fail('alarm disarm', err)];
      }
    }
  }
}
