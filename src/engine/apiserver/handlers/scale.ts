/**
 * The scale subresource (deployments, replicasets, statefulsets, replicationcontrollers, and
 * custom resources at their CRD's replicas paths): an autoscaling/v1 Scale view of the object. Writes change spec.replicas of the object itself,
 * through its own strategy (so generation is bumped) after the Scale is validated.
 */
import { Path, type ErrorList } from '../../api/field';
import { labelSelectorAsSelector } from '../../api/labels';
import { goQuote } from '../../api/gofmt';
import { internalServerError, invalidError, unsupportedMediaTypeError } from '../../api/status';
import { isObject, type JsonObject, type JsonValue, type KubeObject } from '../../api/types';
import { bodyValue } from '../body';
import type { RequestContext, Target } from '../context';
import type { ScalePaths } from '../customresources/definition';
import { encodeLikeGo } from '../encoding/go-json';
import { patchObject } from '../patch';
import { validatePatchOptions } from '../patch/options';
import { PATCH_CONTENT_TYPES } from '../request';
import { validateNonnegativeField } from '../validation/meta';
import { checkWriteOptions } from './create';
import { getObject } from './read';
import { checkName } from './update';
import { guaranteedUpdate, type UpdateResult } from './write';
import { own, setOwn } from '../../api/own';

const SCALE_KIND = { group: 'autoscaling', name: 'Scale' };

/** Where an object keeps what its Scale shows: spec.replicas and the label selector of built-in kinds, a CRD's paths otherwise. */
interface ScaleAccess {
  /** Replicas wanted (undefined when the object does not say), replicas seen, and the selector. */
  read(obj: KubeObject): { spec: number | undefined; status: number; selector: string };
  /** The object with the Scale's replicas. */
  write(obj: KubeObject, replicas: number): void;
}

const BUILTIN_SCALE: ScaleAccess = {
  read(obj) {
    const spec = isObject(obj.spec) ? obj.spec : {};
    const status = isObject(obj.status) ? obj.status : {};
    const selector = labelSelectorAsSelector(isObject(spec.selector) ? spec.selector : undefined);
    return {
      spec: typeof spec.replicas === 'number' ? spec.replicas : undefined,
      status: typeof status.replicas === 'number' ? status.replicas : 0,
      selector: selector.ok ? selector.value.toString() : '',
    };
  },
  write(obj, replicas) {
    obj.spec = { ...(isObject(obj.spec) ? obj.spec : {}), replicas };
  },
};

const pathParts = (path: string): string[] => path.replace(/^\./, '').split('.');

function nested(obj: KubeObject, path: string): JsonValue | undefined {
  let cur: JsonValue | undefined = obj as JsonObject;
  for (const part of pathParts(path)) cur = isObject(cur) ? own(cur, part) : undefined;
  return cur;
}

/** A custom resource's scale subresource (scaleFromCustomResource): replicas and selector at the CRD's paths. */
function customScale(paths: ScalePaths): ScaleAccess {
  return {
    read(obj) {
      const spec = nested(obj, paths.specReplicasPath);
      const status = nested(obj, paths.statusReplicasPath);
      const selector = paths.labelSelectorPath ? nested(obj, paths.labelSelectorPath) : undefined;
      return { spec: typeof spec === 'number' ? spec : undefined, status: typeof status === 'number' ? status : 0, selector: typeof selector === 'string' ? selector : '' };
    },
    write(obj, replicas) {
      let cur = obj as JsonObject;
      const parts = pathParts(paths.specReplicasPath);
      for (const part of parts.slice(0, -1)) {
        if (!isObject(own(cur, part))) setOwn(cur, part, {});
        cur = own(cur, part) as JsonObject;
      }
      setOwn(cur, parts[parts.length - 1]!, replicas);
    },
  };
}

function scaleAccess(ctx: RequestContext, t: Target): ScaleAccess {
  const paths = ctx.server.customResources.forResource(t.info)?.scale;
  return paths ? customScale(paths) : BUILTIN_SCALE;
}

function toScale(obj: KubeObject, access: ScaleAccess): KubeObject {
  const read = access.read(obj);
  const m = obj.metadata;
  const metadata: KubeObject['metadata'] = { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp };
  for (const k of Object.keys(metadata) as (keyof typeof metadata)[]) if (metadata[k] === undefined) delete metadata[k];
  // The Scale is made, not stored: it is written as its Go type is (no empty selector).
  return encodeLikeGo({
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: read.spec ?? 0 },
    status: { replicas: read.status, selector: read.selector },
  });
}

function replicasOf(scale: JsonObject): number | undefined {
  const spec = isObject(scale.spec) ? scale.spec : {};
  return typeof spec.replicas === 'number' ? spec.replicas : undefined;
}

/** ValidateScale, then the object with the Scale's replicas. */
function applyScale(t: Target, access: ScaleAccess, scale: JsonObject, current: KubeObject): KubeObject {
  const replicas = replicasOf(scale) ?? 0;
  const errs: ErrorList = validateNonnegativeField(replicas, Path.root('spec', 'replicas'));
  const meta = isObject(scale.metadata) ? scale.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (errs.length > 0) throw invalidError(SCALE_KIND, name, errs);
  checkName({ apiVersion: '', kind: '', metadata: { name, namespace: typeof meta.namespace === 'string' ? meta.namespace : undefined } }, t);
  const obj = structuredClone(current) as KubeObject;
  access.write(obj, replicas);
  obj.metadata.resourceVersion = typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '' ? meta.resourceVersion : undefined;
  if (obj.metadata.resourceVersion === undefined) delete obj.metadata.resourceVersion;
  return obj;
}

const mainResource = (t: Target): Target => ({ ...t, subresource: '' });

export async function getScale(ctx: RequestContext, t: Target): Promise<KubeObject> {
  const access = scaleAccess(ctx, t);
  const obj = await getObject(ctx, t);
  const paths = ctx.server.customResources.forResource(t.info)?.scale;
  if (paths && access.read(obj).spec === undefined) throw internalServerError(`the spec replicas field ${goQuote(paths.specReplicasPath)} does not exist`);
  return toScale(obj, access);
}

export async function updateScale(ctx: RequestContext, t: Target): Promise<UpdateResult> {
  checkWriteOptions(ctx, 'UpdateOptions');
  const body = bodyValue(ctx.request.body);
  const scale = isObject(body) ? body : {};
  const access = scaleAccess(ctx, t);
  const result = await guaranteedUpdate(ctx, mainResource(t), {
    updatedObject: async (current) => applyScale(t, access, scale, current!),
  });
  return { object: toScale(result.object, access), created: false };
}

export async function patchScale(ctx: RequestContext, t: Target): Promise<UpdateResult> {
  const type = ctx.request.patchType;
  if (!type || type === 'apply') throw unsupportedMediaTypeError(type ?? '', Object.keys(PATCH_CONTENT_TYPES));
  const invalid = validatePatchOptions({ fieldManager: ctx.options.fieldManager, force: ctx.options.force }, type);
  if (invalid) throw invalid;
  const patch = bodyValue(ctx.request.body);
  const access = scaleAccess(ctx, t);
  const result = await guaranteedUpdate(ctx, mainResource(t), {
    async updatedObject(current) {
      const patched = patchObject({ type, current: toScale(current!, access) as JsonObject, patch });
      return applyScale(t, access, isObject(patched) ? patched : {}, current!);
    },
  });
  return { object: toScale(result.object, access), created: false };
}
