/**
 * The flags of the simulated etcd cluster: how many members (--etcd-members), what each request
 * costs (--etcd-latency model|instant), and faults on the virtual clock
 * (--etcd-fault ACTION:TARGET@TIME, repeatable: stop, start, partition, heal or slow; TARGET is
 * `leader` or a member name such as etcd-1; TIME a virtual duration from the start of the run,
 * such as 20s).
 */
import { DEFAULT_MEMBERS, type EtcdClient, type EtcdCluster, type MemberStatus } from '../engine/store/etcdserver';
import { isInstant } from '../engine/store/etcdserver/latency';
import { MAINTENANCE_ACTIONS, runMaintenance, type MaintenanceAction, type MaintenanceResult } from '../engine/store/etcdserver/maintenance';
import { DEFAULT_QUOTA_BACKEND_BYTES } from '../engine/store/etcdserver/quota';
import type { WatchCacheStatus } from '../engine/apiserver/storage/cluster-storage';
import type { Clock } from '../engine/clock';
import { alarmText } from '../engine/store/etcdserver/cluster';
import { parseVirtualDuration } from '../engine/api/duration';

export type FaultAction = 'stop' | 'start' | 'partition' | 'heal' | 'slow';

export interface EtcdFault {
  readonly action: FaultAction;
  readonly target: string;
  readonly atMs: number;
  /** The flag as given, for messages. */
  readonly text: string;
}

export interface EtcdMaintenanceStep {
  readonly action: MaintenanceAction;
  /** defrag: one member (without it, every member in turn). */
  readonly member?: string;
  readonly atMs: number;
  readonly text: string;
}

export interface EtcdSimFlags {
  members?: number;
  latency?: 'model' | 'instant';
  faults: EtcdFault[];
  /** etcd's --quota-backend-bytes (0: the default 2 GiB; negative: no quota). */
  quotaBackendBytes?: number;
  maintenance?: EtcdMaintenanceStep[];
}

export const ETCD_SIM_FLAGS_USAGE = `      --etcd-members <n>  Members of the simulated etcd cluster, etcd-0 ... (1, 3 or 5; default 3).
      --etcd-latency <model|instant>
                          "model" (default): every request pays the API server's work, the
                          WAL fsync and the replication round trip in virtual time; "instant":
                          requests complete in the instant they are made.
      --etcd-fault <action>:<target>@<time>
                          A fault on the virtual clock (repeatable): action stop, start,
                          partition, heal or slow (disk); target leader or a member (etcd-1);
                          time from the start of the run, such as 20s.
      --quota-backend-bytes <bytes>
                          etcd's backend quota: past it etcd raises the NOSPACE alarm and
                          takes only reads, deletes and compactions (default ${DEFAULT_QUOTA_BACKEND_BYTES},
                          2 GiB; 0 is the default, a negative value disables the quota).
      --etcd-maintenance <compact|defrag[:member]|disarm>@<time>
                          An operator's step on the virtual clock (repeatable), as etcdctl
                          runs it: compact at the current revision, defragment one member
                          (or every member), disarm the alarms; time as for --etcd-fault.
`;

const FLAGS = new Set(['--etcd-members', '--etcd-latency', '--etcd-fault', '--quota-backend-bytes', '--etcd-maintenance']);
const ACTIONS = new Set<FaultAction>(['stop', 'start', 'partition', 'heal', 'slow']);

export function isEtcdSimFlag(flag: string): boolean {
  return FLAGS.has(flag);
}

/** Records one flag's value; returns the usage error, if any. */
export function parseEtcdSimFlag(flag: string, value: string | undefined, into: EtcdSimFlags): string | undefined {
  if (value === undefined || value === '') return `error: flag needs an argument: ${flag}`;
  if (flag === '--etcd-members') {
    const n = Number(value);
    if (!(n === 1 || n === 3 || n === 5)) return `error: invalid value for --etcd-members: ${JSON.stringify(value)} (use 1, 3 or 5)`;
    into.members = n;
    return undefined;
  }
  if (flag === '--etcd-latency') {
    if (value !== 'model' && value !== 'instant') return `error: invalid value for --etcd-latency: ${JSON.stringify(value)} (use model or instant)`;
    into.latency = value;
    return undefined;
  }
  if (flag === '--quota-backend-bytes') {
    // etcd's flag is an int64 of bytes.
    if (!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) return `error: invalid value for --quota-backend-bytes: ${JSON.stringify(value)} (use a number of bytes, such as 2147483648)`;
    into.quotaBackendBytes = Number(value);
    return undefined;
  }
  if (flag === '--etcd-maintenance') {
    const mm = /^([a-z]+)(?::([A-Za-z0-9._-]+))?@(.+)$/.exec(value);
    if (!mm) return `error: invalid value for --etcd-maintenance: ${JSON.stringify(value)} (use compact@TIME, defrag[:MEMBER]@TIME or disarm@TIME, such as compact@30s)`;
    const [, action, member, time] = mm;
    if (!MAINTENANCE_ACTIONS.includes(action as MaintenanceAction)) return `error: invalid --etcd-maintenance action ${JSON.stringify(action)} (use compact, defrag or disarm)`;
    if (member !== undefined && action !== 'defrag') return `error: invalid --etcd-maintenance ${JSON.stringify(value)}: only defrag takes a member`;
    if (member !== undefined && !/^etcd-\d+$/.test(member) && member !== 'leader') return `error: invalid --etcd-maintenance member ${JSON.stringify(member)} (use leader or a member name such as etcd-1)`;
    const atMs = parseVirtualDuration(time!);
    if (!atMs.ok) return `error: invalid --etcd-maintenance time ${JSON.stringify(time)} (use a virtual duration such as 30s)`;
    (into.maintenance ??= []).push({ action: action as MaintenanceAction, ...(member !== undefined ? { member } : {}), atMs: atMs.value, text: value });
    return undefined;
  }
  const m = /^([a-z]+):([A-Za-z0-9._-]+)@(.+)$/.exec(value);
  if (!m) return `error: invalid value for --etcd-fault: ${JSON.stringify(value)} (use ACTION:TARGET@TIME, such as stop:leader@20s)`;
  const [, action, target, time] = m;
  if (!ACTIONS.has(action as FaultAction)) return `error: invalid --etcd-fault action ${JSON.stringify(action)} (use stop, start, partition, heal or slow)`;
  if (target !== 'leader' && !/^etcd-\d+$/.test(target!)) return `error: invalid --etcd-fault target ${JSON.stringify(target)} (use leader or a member name such as etcd-1)`;
  const atMs = parseVirtualDuration(time!);
  if (!atMs.ok) return `error: invalid --etcd-fault time ${JSON.stringify(time)} (use a virtual duration such as 20s)`;
  into.faults.push({ action: action as FaultAction, target: target!, atMs: atMs.value, text: value });
  return undefined;
}

/** Checks the faults' targets against the cluster's members. */
export function checkFaultTargets(flags: EtcdSimFlags, members: number = flags.members ?? DEFAULT_MEMBERS): string | undefined {
  for (const f of flags.faults) {
    if (f.target === 'leader') continue;
    const i = Number(f.target.slice('etcd-'.length));
    if (!(i < members)) return `error: --etcd-fault ${f.text}: etcd member "${f.target}" not found (members: ${Array.from({ length: members }, (_, k) => `etcd-${k}`).join(', ')})`;
  }
  for (const s of flags.maintenance ?? []) {
    if (s.member === undefined || s.member === 'leader') continue;
    const i = Number(s.member.slice('etcd-'.length));
    if (!(i < members)) return `error: --etcd-maintenance ${s.text}: etcd member "${s.member}" not found (members: ${Array.from({ length: members }, (_, k) => `etcd-${k}`).join(', ')})`;
  }
  return undefined;
}

/** Whether any flag is one for the simulated etcd only (not for --etcd-endpoints). */
export function hasSimOnlyFlags(flags: EtcdSimFlags): boolean {
  return flags.members !== undefined || flags.latency !== undefined || flags.faults.length > 0 || flags.quotaBackendBytes !== undefined || (flags.maintenance?.length ?? 0) > 0;
}

export const SIM_ONLY_FLAGS_ERROR = 'error: --etcd-members, --etcd-latency, --etcd-fault, --quota-backend-bytes and --etcd-maintenance are for the simulated etcd, not --etcd-endpoints';

/**
 * Schedules the maintenance steps on the clock, from the start of the run; each one's results
 * go to `done` (and to the trace, by the maintenance module).
 */
export function scheduleMaintenance(client: EtcdClient, clock: Clock, steps: readonly EtcdMaintenanceStep[], done: (results: MaintenanceResult[]) => void): void {
  for (const s of steps) {
    clock.setTimer(
      s.atMs,
      () => {
        void runMaintenance(client, s, client.cluster.trace, clock).then(done);
      },
      { label: `etcd maintenance ${s.text}` },
    );
  }
}

/**
 * Schedules the faults on the clock, from `startMs`. A fault whose target cannot be resolved
 * then (no leader to stop) is recorded in the cluster's trace as the member event would be,
 * and reported to `onSkipped`.
 */
export function scheduleFaults(cluster: EtcdCluster, clock: Clock, faults: readonly EtcdFault[], onSkipped: (fault: EtcdFault, why: string) => void): void {
  for (const f of faults) {
    clock.setTimer(
      f.atMs,
      () => {
        try {
          switch (f.action) {
            case 'stop':
              cluster.stop(f.target);
              break;
            case 'start':
              cluster.start(f.target);
              break;
            case 'partition':
              cluster.partition(f.target);
              break;
            case 'heal':
              cluster.heal(f.target);
              break;
            case 'slow':
              cluster.slowDisk(f.target);
              break;
          }
        } catch (err) {
          onSkipped(f, err instanceof Error ? err.message : String(err));
        }
      },
      { label: `etcd fault ${f.text}` },
    );
  }
}

/** One line for a maintenance step's outcome (`kubesim serve` prints them as they happen). */
export function maintenanceLine(r: MaintenanceResult): string {
  const what = r.action === 'defrag' ? `defrag ${r.member}` : r.action === 'compact' ? `compaction${r.revision !== undefined ? ` at revision ${r.revision}` : ''}` : 'alarm disarm';
  if (r.error) return `${what} failed: ${r.error}`;
  if (r.action === 'defrag') return `${what}: ${r.dbSizeBeforeBytes} bytes before, ${r.dbSizeAfterBytes} after (${r.dbSizeInUseBytes} in use)`;
  if (r.action === 'disarm') return `${what}: ${r.alarms!.length === 0 ? 'no alarm was active' : r.alarms!.map((a) => a.trim()).join(', ')}`;
  return what;
}

/** One line on the simulated etcd, for `kubesim serve`'s banner. */
export function etcdSummary(cluster: EtcdCluster): string {
  const members = cluster.status().map((m) => (m.role === 'leader' ? `${m.name} leader` : m.name));
  const l = cluster.latency;
  const latency = isInstant(l) ? 'instant latency' : `the latency model (API server ${l.apiserverMs} ms, round trip ${l.rttMs} ms, WAL fsync ${l.walFsyncMs} ms)`;
  return `simulated etcd: ${members.length} member${members.length === 1 ? '' : 's'} (${members.join(', ')}), ${latency}`;
}

type JsonMember = Pick<
  MemberStatus,
  'name' | 'role' | 'state' | 'term' | 'commitIndex' | 'appliedIndex' | 'revision' | 'dbSizeBytes' | 'dbSizeInUseBytes' | 'compactRevision' | 'quotaBackendBytes' | 'alarms' | 'watchers' | 'revisionsPerSecond' | 'commitLatencyMs'
>;

export interface EtcdJson {
  members: JsonMember[];
  /** The cluster's active alarms as `etcdctl alarm list` prints them. */
  alarms: string[];
  /** The --etcd-maintenance steps run, in order. */
  maintenance: MaintenanceResult[];
  /** kube-apiserver's watch caches. */
  watchCache?: WatchCacheStatus;
}

/** The "etcd" block of `--output json`: each member as `endpoint status` would describe it, the alarms, the maintenance steps, the watch caches. */
export function etcdJson(cluster: EtcdCluster, extra: { maintenance?: readonly MaintenanceResult[]; watchCache?: WatchCacheStatus } = {}): EtcdJson {
  return {
    members: cluster.status().map((m) => ({
      name: m.name,
      role: m.role,
      state: m.state,
      term: m.term,
      commitIndex: m.commitIndex,
      appliedIndex: m.appliedIndex,
      revision: m.revision,
      compactRevision: m.compactRevision,
      dbSizeBytes: m.dbSizeBytes,
      dbSizeInUseBytes: m.dbSizeInUseBytes,
      quotaBackendBytes: m.quotaBackendBytes,
      alarms: m.alarms,
      watchers: m.watchers,
      revisionsPerSecond: m.revisionsPerSecond,
      commitLatencyMs: m.commitLatencyMs,
    })),
    alarms: cluster.alarms().map((a) => alarmText(a).trim()),
    maintenance: [...(extra.maintenance ?? [])],
    ...(extra.watchCache ? { watchCache: extra.watchCache } : {}),
  };
}
