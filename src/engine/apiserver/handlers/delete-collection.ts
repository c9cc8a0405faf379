/** DELETE on a collection: every object the selectors match, each deleted as DELETE would. */
import { isStatusError } from '../../api/status';
import type { JsonObject, KubeObject } from '../../api/types';
import type { RequestContext, Target } from '../context';
import { deleteObject, type DeleteOptions } from './delete';
import { deleteNamespace } from './delete-namespace';
import { listObjects } from './read';

export async function deleteCollection(ctx: RequestContext, t: Target, options: DeleteOptions): Promise<JsonObject> {
  const list = await listObjects(ctx, t);
  const items = (list.items ?? []) as KubeObject[];
  const done: KubeObject[] = [];
  const isNamespace = t.info.group === '' && t.info.resource === 'namespaces';
  for (const item of items) {
    const target = { ...t, name: item.metadata.name ?? '' };
    try {
      await (isNamespace ? deleteNamespace(ctx, target, options) : deleteObject(ctx, target, options));
      done.push(item);
    } catch (err) {
      if (!(isStatusError(err) && err.reason === 'NotFound')) throw err;
    }
  }
  return { ...list, items: done as JsonObject[] };
}
