/**
 * PUT on a resource or one of its update subresources (status, finalize): decode, check the
 * body names the URL's object, and run GuaranteedUpdate with the subresource's prepare and
 * validation.
 */
import { badRequestError } from '../../api/status';
import type { JsonObject, KubeObject } from '../../api/types';
import { decodeBody } from '../body';
import type { RequestContext, Target } from '../context';
import { trackWrite } from '../managed-fields';
import { cloneJson } from '../patch/govalue';
import { prepareStatusUpdate } from '../strategies/generic';
import { prepareFinalizeUpdate } from '../strategies/namespace';
import { statusUpdateErrors } from '../validate';
import { checkWriteOptions } from './create';
import { guaranteedUpdate, type UpdateResult, type UpdateSpec } from './write';

/** handlers.checkName: the body must name the object the URL names. */
export function checkName(obj: KubeObject, t: Target): void {
  const name = obj.metadata.name ?? '';
  if (name !== t.name) throw badRequestError(`the name of the object (${name}) does not match the name on the URL (${t.name})`);
  const ns = obj.metadata.namespace ?? '';
  if (t.namespace && ns && ns !== t.namespace) {
    throw badRequestError(`the namespace of the object (${ns}) does not match the namespace on the request (${t.namespace})`);
  }
}

/** How an update of the target's subresource prepares and validates the object. */
export function subresourceUpdate(t: Target): Pick<UpdateSpec, 'prepare' | 'errors'> {
  switch (t.subresource) {
    case 'status':
      return {
        prepare: t.strategy.prepareStatusUpdate ?? prepareStatusUpdate(t.info.group, t.info.resource),
        errors: (obj, old) => statusUpdateErrors(t, obj, old),
      };
    case 'finalize':
      return { prepare: prepareFinalizeUpdate, errors: (obj, old) => statusUpdateErrors(t, obj, old) };
    default:
      return {};
  }
}

export async function handleUpdate(ctx: RequestContext, t: Target): Promise<UpdateResult> {
  checkWriteOptions(ctx, 'UpdateOptions');
  const obj = decodeBody(ctx, t.info);
  checkName(obj, t);
  return guaranteedUpdate(ctx, t, {
    ...subresourceUpdate(t),
    updatedObject: async (current) => trackWrite(ctx, t, current, cloneJson(obj as JsonObject) as KubeObject),
  });
}
