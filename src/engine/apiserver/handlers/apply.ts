/**
 * PATCH with application/apply-patch+yaml: server-side apply. The applied configuration is
 * merged into the live object (or a new one) by the field manager, which owns the conflict
 * check; the result is then decoded, defaulted and stored like any update, and an apply that
 * creates goes through create's admission and storage.
 */
import { badRequestError, StatusError } from '../../api/status';
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import { applyPatch, checkPatchedIdentity } from '../apply';
import { bodyValue, decodeAs } from '../body';
import type { RequestContext, Target } from '../context';
import { fieldManagerScope } from '../managed-fields';
import { validatePatchOptions } from '../patch/options';
import { subresourceUpdate } from './update';
import { guaranteedUpdate, type UpdateResult } from './write';

export async function handleApply(ctx: RequestContext, t: Target): Promise<UpdateResult> {
  const manager = ctx.options.fieldManager;
  const invalid = validatePatchOptions({ fieldManager: manager, force: ctx.options.force }, 'apply');
  if (invalid) throw invalid;
  const applied = bodyValue(ctx.request.body);
  if (!isObject(applied)) throw badRequestError('error decoding YAML: the apply configuration must be an object');
  const scope = fieldManagerScope(ctx, t);
  if (!scope) throw badRequestError(`server-side apply is not supported for ${t.info.resource}`);
  return guaranteedUpdate(ctx, t, {
    ...subresourceUpdate(t),
    forceAllowCreate: !t.subresource,
    async updatedObject(current: KubeObject | undefined): Promise<KubeObject> {
      const result = applyPatch({ ...scope, now: ctx.server.clock.now(), live: current, applied, manager: manager ?? '', force: ctx.options.force === true });
      const merged = result.object as JsonObject;
      const identity = checkPatchedIdentity(merged, t.name, t.namespace);
      if (identity instanceof StatusError) throw identity;
      const obj = decodeAs(ctx, merged, t.info);
      if (current) obj.metadata.resourceVersion = obj.metadata.resourceVersion ?? current.metadata.resourceVersion;
      return obj;
    },
  });
}
