/**
 * When a new cluster is ready for work, as `kind create cluster --wait` judges it: every node
 * Ready and free of the not-ready taint, and the default namespace's ServiceAccount created
 * (pods cannot be admitted without it). Virtual time runs until then, a second at a time.
 */
import { isObject, type JsonObject } from './api/types';
import type { Client } from './client/client';
import type { Clock } from './clock';
import { NODES, SERVICEACCOUNTS } from './client/resources';
import { isNotFound } from './client/errors';

/** What readiness asks of the cluster that createCluster is starting (src/engine/cluster.ts). */
export interface StartingCluster {
  readonly clock: Clock;
  client(): Client;
  nodes(): readonly string[];
  settle(): Promise<unknown>;
  advance(ms: number): Promise<number>;
}

/** How long a cluster may take to come up before createCluster gives up. */
const READY_TIMEOUT_MS = 5 * 60_000;
const POLL_MS = 1000;
const NOT_READY_TAINTS = new Set(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'node.cloudprovider.kubernetes.io/uninitialized']);

function nodeReady(node: JsonObject): boolean {
  const status = isObject(node.status) ? node.status : {};
  const spec = isObject(node.spec) ? node.spec : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
  const taints = Array.isArray(spec.taints) ? spec.taints.filter(isObject) : [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True') && !taints.some((t) => NOT_READY_TAINTS.has(String(t.key)));
}

async function ready(cluster: StartingCluster): Promise<boolean> {
  const admin = cluster.client();
  const nodes = await admin.resource(NODES).list({ resourceVersion: '0' });
  if (nodes.items.length < cluster.nodes().length || !nodes.items.every((n) => nodeReady(n as JsonObject))) return false;
  try {
    await admin.resource(SERVICEACCOUNTS, 'default').get('default', { resourceVersion: '0' });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

export async function waitForControlPlane(cluster: StartingCluster): Promise<void> {
  await cluster.settle();
  const deadline = cluster.clock.now() + READY_TIMEOUT_MS;
  // The reads are requests: with a latency model they take virtual time too.
  while (!(await cluster.clock.until(ready(cluster)))) {
    if (cluster.clock.now() >= deadline) throw new Error(`the cluster did not become ready within ${READY_TIMEOUT_MS / 1000}s of virtual time`);
    await cluster.advance(POLL_MS);
  }
  await cluster.settle();
}
