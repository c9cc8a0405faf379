/**
 * `kubectl cordon`, `uncordon` and `drain` (k8s.io/kubectl/pkg/drain) as a client of the API
 * server: a strategic merge patch of spec.unschedulable, then the node's pods filtered as
 * kubectl filters them (DaemonSet pods, mirror pods, emptyDir data, pods without a controller)
 * and evicted through pods/eviction, or deleted where the server has no eviction subresource.
 * Returns kubectl's output lines; a refusal throws an Error with kubectl's text.
 *
 * kubectl drain then waits for the pods to be gone ("pod/x evicted", "node/y drained"); here
 * the pods go as the cluster runs on, and the caller watches them go.
 */
import { isStatusError } from '../api/status';
import { isObject, type JsonObject } from '../api/types';
import type { Client } from '../client/client';
import { DAEMONSETS, NODES, PODS } from '../client/resources';
import { isNotFound } from '../client/errors';
import type { Pod } from '../scheduler/api';

export interface DrainOptions {
  /** --ignore-daemonsets */
  ignoreDaemonSets?: boolean;
  /** --delete-emptydir-data */
  deleteEmptyDirData?: boolean;
  /** --force: also delete pods that declare no controller. */
  force?: boolean;
  /** --grace-period (default: each pod's own). */
  gracePeriodSeconds?: number;
  /** --disable-eviction: delete, bypassing PodDisruptionBudgets. */
  disableEviction?: boolean;
}

const DAEMON_SET_FATAL = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
const DAEMON_SET_WARNING = 'ignoring DaemonSet-managed Pods';
const LOCAL_STORAGE_FATAL = 'Pods with local storage (use --delete-emptydir-data to override)';
const LOCAL_STORAGE_WARNING = 'deleting Pods with local storage';
const UNMANAGED_FATAL = 'cannot delete Pods that declare no controller (use --force to override)';
const UNMANAGED_WARNING = 'deleting Pods that declare no controller';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

export const CORDON_FIELD_MANAGER = 'kubectl-cordon';

async function setUnschedulable(client: Client, name: string, desired: boolean): Promise<string> {
  const nodes = client.resource(NODES);
  const node = (await nodes.get(name)) as JsonObject;
  const spec = isObject(node.spec) ? node.spec : {};
  const verb = desired ? 'cordoned' : 'uncordoned';
  if ((spec.unschedulable === true) === desired) return `node/${name} already ${verb}`;
  await nodes.patch(name, 'strategic', { spec: { unschedulable: desired ? true : null } });
  return `node/${name} ${verb}`;
}

export function cordon(client: Client, node: string): Promise<string> {
  return setUnschedulable(client, node, true);
}

export function uncordon(client: Client, node: string): Promise<string> {
  return setUnschedulable(client, node, false);
}

type Verdict = { delete: boolean; warning?: string; error?: string };

const finished = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

function controllerOf(pod: Pod): { apiVersion?: string; kind?: string; name?: string } | undefined {
  return pod.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** kubectl's filters, in its order; the first that does not delete decides. */
async function filter(client: Client, pod: Pod, options: DrainOptions): Promise<Verdict> {
  const ref = controllerOf(pod);
  if (ref && ref.kind === 'DaemonSet' && ref.apiVersion === 'apps/v1' && !finished(pod)) {
    try {
      await client.resource(DAEMONSETS, pod.metadata.namespace).get(ref.name ?? '');
      if (!options.ignoreDaemonSets) return { delete: false, error: DAEMON_SET_FATAL };
      return { delete: false, warning: DAEMON_SET_WARNING };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (isNotFound(err) && options.force) return { delete: true, warning: message };
      return { delete: false, error: message };
    }
  }
  if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return { delete: false };
  if ((pod.spec.volumes ?? []).some((v) => isObject(v.emptyDir)) && !finished(pod)) {
    if (!options.deleteEmptyDirData) return { delete: false, error: LOCAL_STORAGE_FATAL };
    return { delete: true, warning: LOCAL_STORAGE_WARNING };
  }
  if (!finished(pod) && !ref) {
    if (!options.force) return { delete: false, error: UNMANAGED_FATAL };
    return { delete: true, warning: UNMANAGED_WARNING };
  }
  return { delete: true };
}

/** Messages with the pods they apply to: "msg: ns/a, ns/b", in first-seen order. */
function grouped(entries: { message: string; pod: Pod }[]): [string, string][] {
  const byMessage = new Map<string, string[]>();
  for (const { message, pod } of entries) {
    const list = byMessage.get(message) ?? [];
    list.push(`${pod.metadata.namespace}/${pod.metadata.name}`);
    byMessage.set(message, list);
  }
  return [...byMessage].map(([message, pods]) => [message, pods.join(', ')]);
}

export async function drain(client: Client, node: string, options: DrainOptions = {}): Promise<string[]> {
  const lines = [await cordon(client, node)];
  const list = await client.resource<Pod>(PODS).list({ fieldSelector: `spec.nodeName=${node}` });
  const doomed: Pod[] = [];
  const warnings: { message: string; pod: Pod }[] = [];
  const errors: { message: string; pod: Pod }[] = [];
  for (const pod of list.items) {
    const verdict = await filter(client, pod, options);
    if (verdict.warning) warnings.push({ message: verdict.warning, pod });
    if (verdict.error) errors.push({ message: verdict.error, pod });
    if (verdict.delete) doomed.push(pod);
  }
  if (errors.length > 0) {
    const text = grouped(errors).map(([message, pods]) => `cannot delete ${message}: ${pods}`);
    throw new Error(`unable to drain node "${node}" due to error: ${text.length === 1 ? text[0] : `[${text.join(', ')}]`}, continuing command...`);
  }
  if (warnings.length > 0) lines.push(`Warning: ${grouped(warnings).map(([message, pods]) => `${message}: ${pods}`).join('; ')}`);
  let evict = !options.disableEviction;
  for (const pod of doomed) {
    const { namespace, name } = pod.metadata;
    const pods = client.resource(PODS, namespace);
    const deleteOptions = options.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: options.gracePeriodSeconds } : {};
    if (evict) {
      try {
        await pods.evict({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace }, deleteOptions });
        lines.push(`evicting pod ${namespace}/${name}`);
        continue;
      } catch (err) {
        if (!evictionNotServed(err)) {
          lines.push(`error when evicting pods/"${name}" -n "${namespace}" (will retry after 5s): ${err instanceof Error ? err.message : String(err)}`);
          continue;
        }
        // CheckEvictionSupport: a server without pods/eviction gets deletions.
        evict = false;
      }
    }
    await pods.delete(name, deleteOptions);
  }
  return lines;
}

/** The server's 404 for a subresource it does not serve (not a pod that is gone). */
function evictionNotServed(err: unknown): boolean {
  return isStatusError(err) && err.code === 404 && !err.status.details?.name;
}
