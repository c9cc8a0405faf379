/**
 * PATCH (JSON patch, merge patch, strategic merge patch): the patch is applied to the current
 * object inside GuaranteedUpdate, and the result is decoded, defaulted and validated like the
 * body of an update.
 */
import { notFoundError, unsupportedMediaTypeError } from '../../api/status';
import { schemaForKind } from '../../api/openapi';
import type { JsonObject, KubeObject } from '../../api/types';
import { bodyValue, decodePatched } from '../body';
import type { RequestContext, Target } from '../context';
import { trackWrite } from '../managed-fields';
import { patchObject } from '../patch';
import { validatePatchOptions } from '../patch/options';
import { PATCH_CONTENT_TYPES } from '../request';
import { groupResource } from '../resources';
import { checkName, subresourceUpdate } from './update';
import { guaranteedUpdate, type UpdateResult } from './write';

/** Custom resources take no strategic merge patch: they have no Go type to read patch strategies from. */
const CUSTOM_PATCH_CONTENT_TYPES = Object.keys(PATCH_CONTENT_TYPES).filter((c) => PATCH_CONTENT_TYPES[c] !== 'strategic');

export async function handlePatch(ctx: RequestContext, t: Target): Promise<UpdateResult> {
  const type = ctx.request.patchType;
  if (!type || type === 'apply') throw unsupportedMediaTypeError(type ?? '', Object.keys(PATCH_CONTENT_TYPES));
  if (type === 'strategic' && ctx.server.customResources.forResource(t.info)) {
    throw unsupportedMediaTypeError('application/strategic-merge-patch+json', CUSTOM_PATCH_CONTENT_TYPES);
  }
  const invalid = validatePatchOptions({ fieldManager: ctx.options.fieldManager, force: ctx.options.force }, type);
  if (invalid) throw invalid;
  const patch = bodyValue(ctx.request.body);
  const schema = schemaForKind(t.info.group, t.info.version, t.info.kind);
  return guaranteedUpdate(ctx, t, {
    ...subresourceUpdate(t),
    async updatedObject(current: KubeObject | undefined): Promise<KubeObject> {
      // Only server-side apply creates; other patches need something to patch.
      if (!current) throw notFoundError(groupResource(t.info), t.name);
      // Each patch engine works on a copy of its input, so the frozen current object is passed as it is.
      const patched = patchObject({ type, current: current as JsonObject, patch, schema, fieldValidation: ctx.options.fieldValidation });
      const obj = decodePatched(ctx, patched, patch, type === 'strategic', t.info);
      checkName(obj, t);
      return trackWrite(ctx, t, current, obj);
    },
  });
}
