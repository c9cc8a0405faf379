/**
 * The scale subresource (deployments, replicasets, statefulsets, replicationcontrollers): an
 * autoscaling/v1 Scale view of the object. Writes change spec.replicas of the object itself,
 * through its own strategy (so generation is bumped) after the Scale is validated.
 */
import { Path, type ErrorList } from '../../api/field';
import { labelSelectorAsSelector, SelectorError, type LabelSelector } from '../../api/labels';
import { invalidError, unsupportedMediaTypeError } from '../../api/status';
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import { bodyValue } from '../body';
import type { RequestContext, Target } from '../context';
import { patchObject } from '../patch';
import { validatePatchOptions } from '../patch/options';
import { PATCH_CONTENT_TYPES } from '../request';
import { validateNonnegativeField } from '../validation/meta';
import { checkWriteOptions } from './create';
import { getObject } from './read';
import { checkName } from './update';
import { guaranteedUpdate, type UpdateResult } from './write';

const SCALE_KIND = { group: 'autoscaling', name: 'Scale' };

export function toScale(obj: KubeObject): KubeObject {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const status = isObject(obj.status) ? obj.status : {};
  const selector = labelSelectorAsSelector(isObject(spec.selector) ? (spec.selector as unknown as LabelSelector) : undefined);
  const m = obj.metadata;
  const metadata: KubeObject['metadata'] = { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp };
  for (const k of Object.keys(metadata)) if (metadata[k] === undefined) delete metadata[k];
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: typeof spec.replicas === 'number' ? spec.replicas : 0 },
    status: {
      replicas: typeof status.replicas === 'number' ? status.replicas : 0,
      selector: selector instanceof SelectorError ? '' : selector.toString(),
    },
  };
}

function replicasOf(scale: JsonObject): number | undefined {
  const spec = isObject(scale.spec) ? scale.spec : {};
  return typeof spec.replicas === 'number' ? spec.replicas : undefined;
}

/** ValidateScale, then the object with the Scale's replicas. */
function applyScale(t: Target, scale: JsonObject, current: KubeObject): KubeObject {
  const replicas = replicasOf(scale) ?? 0;
  const errs: ErrorList = validateNonnegativeField(replicas, Path.root('spec', 'replicas'));
  const meta = isObject(scale.metadata) ? scale.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (errs.length > 0) throw invalidError(SCALE_KIND, name, errs);
  checkName({ apiVersion: '', kind: '', metadata: { name, namespace: typeof meta.namespace === 'string' ? meta.namespace : undefined } }, t);
  const obj = structuredClone(current) as KubeObject;
  obj.spec = { ...(isObject(obj.spec) ? obj.spec : {}), replicas };
  obj.metadata.resourceVersion = typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '' ? meta.resourceVersion : undefined;
  if (obj.metadata.resourceVersion === undefined) delete obj.metadata.resourceVersion;
  return obj;
}

const mainResource = (t: Target): Target => ({ ...t, subresource: '' });

export async function getScale(ctx: RequestContext, t: Target): Promise<KubeObject> {
  return toScale(await getObject(ctx, t));
}

export async function updateScale(ctx: RequestContext, t: Target): Promise<UpdateResult> {
  checkWriteOptions(ctx, 'UpdateOptions');
  const body = bodyValue(ctx.request.body);
  const scale = isObject(body) ? body : {};
  const result = await guaranteedUpdate(ctx, mainResource(t), {
    updatedObject: async (current) => applyScale(t, scale, current!),
  });
  return { object: toScale(result.object), created: false };
}

export async function patchScale(ctx: RequestContext, t: Target): Promise<UpdateResult> {
  const type = ctx.request.patchType;
  if (!type || type === 'apply') throw unsupportedMediaTypeError(type ?? '', Object.keys(PATCH_CONTENT_TYPES));
  const invalid = validatePatchOptions({ fieldManager: ctx.options.fieldManager, force: ctx.options.force }, type);
  if (invalid) throw invalid;
  const patch = bodyValue(ctx.request.body);
  const result = await guaranteedUpdate(ctx, mainResource(t), {
    async updatedObject(current) {
      const patched = patchObject({ type, current: toScale(current!) as unknown as JsonObject, patch });
      return applyScale(t, isObject(patched) ? patched : {}, current!);
    },
  });
  return { object: toScale(result.object), created: false };
}
