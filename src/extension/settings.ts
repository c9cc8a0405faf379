/**
 * The kubesim.* settings, read and checked (a bad value falls back to its default and is
 * reported), and what a change of them means for a running cluster: applied on the spot (speed,
 * user, field validation, persistence, more nodes) or only by a reset (the machines, the seed,
 * the record buffer, metrics-server). The API endpoint's port is read when the endpoint starts.
 */
import { ADMIN, parseIdentity, type Identity } from './identity';

export const SPEEDS: readonly number[] = [0.25, 0.5, 1, 2, 5, 10, 25, 50, 100];
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface NodeTaint {
  key: string;
  value?: string;
  effect: TaintEffect;
}

export interface NodeSettings {
  count: number;
  cpu: string;
  memory: string;
  pods: number;
  labels: Record<string, string>;
  taints: NodeTaint[];
  zones: string[];
}

export interface EtcdSettings {
  /** Members of the simulated etcd (etcd-0 ...): 1, 3 or 5. */
  members: number;
  /** 'default': the engine's; 'model': each request pays its way; 'instant': no virtual time. */
  latency: 'default' | 'model' | 'instant';
  /** Parts of the latency model (ms) overriding its defaults; unset: the model's. */
  apiserverMs?: number;
  rttMs?: number;
  walFsyncMs?: number;
  /** etcd's --quota-backend-bytes: 0 its default (2 GiB), negative no quota. */
  quotaBackendBytes: number;
}

export interface KubeSimSettings {
  nodes: NodeSettings;
  speed: number;
  seed: string;
  user: Identity;
  fieldValidation: FieldValidation;
  persistence: boolean;
  traceBufferSize: number;
  /** Run metrics-server (metrics.k8s.io: kubectl top, HPAs); false: none, as in a kind cluster. */
  metricsServer: boolean;
  /** The port Start API Endpoint listens on (0: a free one). */
  apiEndpoint: { port: number };
  etcd: EtcdSettings;
  /** The engine worker's heap limit (MB): its old generation, resourceLimits.maxOldGenerationSizeMb. */
  engine: { maxHeapMB: number };
}

export const DEFAULT_SETTINGS: KubeSimSettings = {
  nodes: { count: 3, cpu: '4', memory: '16Gi', pods: 110, labels: {}, taints: [], zones: ['zone-a', 'zone-b', 'zone-c'] },
  speed: 1,
  seed: 'kubesim',
  user: ADMIN,
  fieldValidation: 'Strict',
  persistence: true,
  traceBufferSize: 100_000,
  metricsServer: true,
  apiEndpoint: { port: 0 },
  etcd: { members: 3, latency: 'default', quotaBackendBytes: 0 },
  engine: { maxHeapMB: 8192 },
};

const CPU = /^\d+(\.\d+)?m?$/;
const MEMORY = /^\d+(\.\d+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$/;
const EFFECTS: readonly string[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the settings through `get` (the section's values by key, undefined when unset). */
export function parseSettings(get: (key: string) => unknown): { settings: KubeSimSettings; problems: string[] } {
  const problems: string[] = [];
  const d = DEFAULT_SETTINGS;
  function read<T>(key: string, fallback: T, check: (v: unknown) => v is T, what: string): T {
    const v = get(key);
    if (v === undefined || v === null) return fallback;
    if (check(v)) return v;
    problems.push(`kubesim.${key}: ${JSON.stringify(v)} is not ${what}; using ${JSON.stringify(fallback)}`);
    return fallback;
  }
  const int = (min: number, max: number) => (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  const matching = (re: RegExp) => (v: unknown): v is string => typeof v === 'string' && re.test(v);
  const labels = (v: unknown): v is Record<string, string> => isRecord(v) && Object.values(v).every((x) => typeof x === 'string');
  const taints = (v: unknown): v is NodeTaint[] =>
    Array.isArray(v) && v.every((t) => isRecord(t) && typeof t.key === 'string' && t.key !== '' && (t.value === undefined || typeof t.value === 'string') && typeof t.effect === 'string' && EFFECTS.includes(t.effect));
  const zones = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((z) => typeof z === 'string' && z !== '');

  const userSpec = read('user', '', (v): v is string => typeof v === 'string', 'a string');
  let user = ADMIN;
  const parsed = parseIdentity(userSpec);
  if (!parsed.ok) problems.push(`kubesim.user: ${parsed.error}; using ${ADMIN.username}`);
  else user = parsed.value;

  const settings: KubeSimSettings = {
    nodes: {
      count: read('nodes.count', d.nodes.count, int(0, 1000), 'an integer from 0 to 1000'),
      cpu: read('nodes.cpu', d.nodes.cpu, matching(CPU), 'a CPU quantity such as 4 or 2500m'),
      memory: read('nodes.memory', d.nodes.memory, matching(MEMORY), 'a memory quantity such as 16Gi'),
      pods: read('nodes.pods', d.nodes.pods, int(1, 1000), 'an integer from 1 to 1000'),
      labels: read('nodes.labels', d.nodes.labels, labels, 'an object of string labels'),
      taints: read('nodes.taints', d.nodes.taints, taints, 'a list of taints ({ key, value?, effect })'),
      zones: read('nodes.zones', d.nodes.zones, zones, 'a non-empty list of zone names'),
    },
    speed: read('speed', d.speed, (v): v is number => typeof v === 'number' && SPEEDS.includes(v), `one of ${SPEEDS.join(', ')}`),
    seed: read('seed', d.seed, (v): v is string => typeof v === 'string', 'a string'),
    user,
    fieldValidation: read('fieldValidation', d.fieldValidation, (v): v is FieldValidation => v === 'Strict' || v === 'Warn' || v === 'Ignore', 'Strict, Warn or Ignore'),
    persistence: read('persistence', d.persistence, (v): v is boolean => typeof v === 'boolean', 'true or false'),
    traceBufferSize: read('traceBufferSize', d.traceBufferSize, int(1000, 1_000_000), 'an integer from 1000 to 1000000'),
    metricsServer: read('metricsServer', d.metricsServer, (v): v is boolean => typeof v === 'boolean', 'true or false'),
    apiEndpoint: { port: read('apiEndpoint.port', d.apiEndpoint.port, int(0, 65535), 'an integer from 0 to 65535') },
    etcd: {
      members: read('etcd.members', d.etcd.members, (v): v is number => v === 1 || v === 3 || v === 5, '1, 3 or 5'),
      latency: read('etcd.latency', d.etcd.latency, (v): v is EtcdSettings['latency'] => v === 'default' || v === 'model' || v === 'instant', 'default, model or instant'),
      quotaBackendBytes: read('etcd.quotaBackendBytes', d.etcd.quotaBackendBytes, (v): v is number => Number.isSafeInteger(v) && (v as number) >= -1 && (v as number) <= 8 * 1024 ** 3, 'an integer of bytes from -1 (no quota) to 8589934592; 0 is etcd\'s default, 2 GiB'),
    },
    engine: { maxHeapMB: read('engine.maxHeapMB', d.engine.maxHeapMB, int(256, 65536), 'an integer from 256 to 65536') },
  };
  const ms = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 60_000;
  for (const part of ['apiserverMs', 'rttMs', 'walFsyncMs'] as const) {
    const v = read<number | undefined>(`etcd.${part}`, undefined, ms, 'a number of milliseconds from 0 to 60000');
    if (v !== undefined) settings.etcd[part] = v;
  }
  return { settings, problems };
}

export interface SettingsChange {
  speed: boolean;
  user: boolean;
  fieldValidation: boolean;
  persistence: boolean;
  /** Workers to add to the running cluster (kubesim.nodes.count went up). */
  addNodes: number;
  /** The settings that only a Reset Cluster brings into effect. */
  needReset: string[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function settingsChange(before: KubeSimSettings, after: KubeSimSettings): SettingsChange {
  const needReset: string[] = [];
  const { count: countBefore, ...machineBefore } = before.nodes;
  const { count: countAfter, ...machineAfter } = after.nodes;
  for (const key of Object.keys(machineAfter) as (keyof typeof machineAfter)[]) {
    if (!same(machineBefore[key], machineAfter[key])) needReset.push(`kubesim.nodes.${key}`);
  }
  if (countAfter < countBefore) needReset.push('kubesim.nodes.count');
  if (before.seed !== after.seed) needReset.push('kubesim.seed');
  if (before.traceBufferSize !== after.traceBufferSize) needReset.push('kubesim.traceBufferSize');
  if (before.metricsServer !== after.metricsServer) needReset.push('kubesim.metricsServer');
  for (const key of ['members', 'latency', 'apiserverMs', 'rttMs', 'walFsyncMs', 'quotaBackendBytes'] as const) if (before.etcd[key] !== after.etcd[key]) needReset.push(`kubesim.etcd.${key}`);
  if (before.engine.maxHeapMB !== after.engine.maxHeapMB) needReset.push('kubesim.engine.maxHeapMB');
  return {
    speed: before.speed !== after.speed,
    user: !same(before.user, after.user),
    fieldValidation: before.fieldValidation !== after.fieldValidation,
    persistence: before.persistence !== after.persistence,
    addNodes: Math.max(0, countAfter - countBefore),
    needReset,
  };
}
