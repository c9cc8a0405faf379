/**
 * How the controller changes a node's taints (controller_utils AddOrUpdateTaintOnNode,
 * RemoveTaintOffNode, SwapNodeControllerTaint): read the node (first from the cache, on a
 * conflict from the API server), compute the taint list, and send it as a strategic merge patch
 * guarded by the resourceVersion it was computed from. Taints the controller adds are stamped
 * with timeAdded.
 */
import type { Client } from '../../client/client';
import { isConflict, isNotFound } from '../../client/errors';
import { NODES } from '../../client/resources';
import { withoutTaints, withTaints, taintExists } from './taints';
import type { Node, Taint } from '../util/types/node';

const RETRIES = 5;

async function patchTaints(client: Client, cached: Node, change: (taints: Taint[]) => Taint[] | undefined): Promise<void> {
  const nodes = client.resource<Node>(NODES);
  let node: Node = cached;
  for (let attempt = 0; ; attempt++) {
    const taints = change([...(node.spec?.taints ?? [])]);
    if (!taints) return;
    try {
      await nodes.patch(node.metadata.name ?? '', 'strategic', { metadata: { resourceVersion: node.metadata.resourceVersion ?? '' }, spec: { taints: taints.length > 0 ? taints : null } });
      return;
    } catch (err) {
      if (!isConflict(err) || attempt + 1 >= RETRIES) throw err;
    }
    node = await nodes.get(cached.metadata.name ?? '');
  }
}

/** Adds the taints (stamped now), then removes the others; false when either write failed. */
export async function swapNodeControllerTaints(client: Client, node: Node, add: readonly Taint[], remove: readonly Taint[], now: string): Promise<boolean> {
  const stamped = add.map((t) => ({ ...t, timeAdded: now }));
  try {
    if (stamped.length > 0) await patchTaints(client, node, (taints) => withTaints(taints, stamped));
    await removeTaints(client, node, remove);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    if (err instanceof Error && !(err instanceof TypeError)) return false;
    throw err;
  }
}

/** Removes the taints the cached node carries; no request when it carries none of them. */
export async function removeTaints(client: Client, node: Node, remove: readonly Taint[]): Promise<void> {
  if (remove.length === 0 || !remove.some((t) => taintExists(node.spec?.taints, t))) return;
  await patchTaints(client, node, (taints) => withoutTaints(taints, remove));
}
