/** POST: decode, wipe what clients may not set, check the namespace, then create. */
import { invalidError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import { decodeBody } from '../body';
import type { RequestContext, Target } from '../context';
import { trackWrite } from '../managed-fields';
import { ensureNamespace, wipeSystemFields } from '../objects';
import { validateCreateOptions } from '../validation/meta';
import { createObject } from './write';

export function checkWriteOptions(ctx: RequestContext, kind: 'CreateOptions' | 'UpdateOptions'): void {
  const o = ctx.options;
  const errs = validateCreateOptions({
    fieldManager: o.fieldManager,
    dryRun: o.dryRun ? ['All'] : [],
    fieldValidation: o.fieldValidation,
  });
  if (errs.length > 0) throw invalidError({ group: 'meta.k8s.io', name: kind }, '', errs);
}

export async function handleCreate(ctx: RequestContext, t: Target): Promise<KubeObject> {
  checkWriteOptions(ctx, 'CreateOptions');
  const obj = decodeBody(ctx, t.info);
  wipeSystemFields(obj.metadata);
  ensureNamespace(obj.metadata, t.namespace, t.info.namespaced);
  return createObject(ctx, t, trackWrite(ctx, t, undefined, obj));
}
