/**
 * POST pods/<name>/binding, the scheduler's write (pkg/registry/core/pod/storage BindingREST):
 * sets spec.nodeName, copies the binding's annotations and marks the pod PodScheduled, unless
 * it is already bound, being deleted or still gated.
 */
import { badRequestError, conflictError, isStatusError, StatusError } from '../../api/status';
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import { bodyValue } from '../body';
import type { RequestContext, Target } from '../context';
import { admissionAttributes, validate } from './admit';
import { guaranteedUpdate } from './write';

const PODS_BINDING = { group: '', name: 'pods/binding' };

function bindingTarget(binding: JsonObject): { kind: string; name: string } {
  const target = isObject(binding.target) ? binding.target : {};
  return { kind: typeof target.kind === 'string' ? target.kind : '', name: typeof target.name === 'string' ? target.name : '' };
}

/** validation.ValidatePodBinding; its errors reach the client as a plain (500) error, as upstream's do. */
function validateBinding(binding: JsonObject): void {
  const { kind, name } = bindingTarget(binding);
  const errs: string[] = [];
  if (kind !== '' && kind !== 'Node') errs.push(`target.kind: Unsupported value: "${kind}": supported values: "Node", "<empty>"`);
  if (name === '') errs.push('target.name: Required value');
  if (errs.length === 1) throw new StatusError({ code: 500, reason: '', message: errs[0]! });
  if (errs.length > 1) throw new StatusError({ code: 500, reason: '', message: `[${errs.join(', ')}]` });
}

/**
 * The pod's status with PodScheduled true, as a new status object: the current conditions are
 * kept as they are (frozen, shared with the stored revision), the one that changes is a copy.
 */
function setCondition(pod: KubeObject, now: string): void {
  const status = isObject(pod.status) ? { ...pod.status } : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
  const at = conditions.findIndex((c) => c.type === 'PodScheduled');
  if (at >= 0) {
    const existing = { ...conditions[at]! };
    if (existing.status !== 'True') existing.lastTransitionTime = now;
    existing.status = 'True';
    conditions[at] = existing;
  } else {
    conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now });
  }
  status.conditions = conditions;
  pod.status = status;
}

export async function createBinding(ctx: RequestContext, t: Target): Promise<JsonObject> {
  const body = bodyValue(ctx.request.body);
  const binding = isObject(body) ? body : {};
  const meta = isObject(binding.metadata) ? binding.metadata : {};
  if ((typeof meta.name === 'string' ? meta.name : '') !== t.name) throw badRequestError('name in URL does not match name in Binding object');
  validateBinding(binding);
  const bindingObject = { apiVersion: 'v1', kind: 'Binding', ...binding, metadata: meta } as KubeObject;
  await validate(ctx, admissionAttributes(ctx, t, 'CREATE', bindingObject, undefined));
  const node = bindingTarget(binding).name;
  const annotations = isObject(meta.annotations) ? (meta.annotations as Record<string, string>) : {};
  const pod = { ...t, subresource: '' };
  try {
    await guaranteedUpdate(ctx, pod, {
      prepare: (obj) => obj,
      errors: () => [],
      skipAdmission: true,
      async updatedObject(current) {
        // Copy-on-write: the binding changes the top level, metadata, spec.nodeName and one
        // condition; every other subtree stays the current revision's (frozen) one, so storing
        // it encodes, freezes and diffs only what changed.
        const p = { ...current!, metadata: { ...current!.metadata } } as KubeObject;
        const spec = isObject(p.spec) ? { ...p.spec } : {};
        if (typeof meta.uid === 'string' && meta.uid && meta.uid !== p.metadata.uid) {
          throw conflictError({ group: '', name: 'pods' }, t.name, `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${p.metadata.uid ?? ''}`);
        }
        if (p.metadata.deletionTimestamp) throw new Error(`pod ${t.name} is being deleted, cannot be assigned to a host`);
        if (typeof spec.nodeName === 'string' && spec.nodeName !== '') throw new Error(`pod ${t.name} is already assigned to node "${spec.nodeName}"`);
        if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0) throw new Error(`pod ${t.name} has non-empty .spec.schedulingGates`);
        spec.nodeName = node;
        p.spec = spec;
        if (Object.keys(annotations).length > 0) p.metadata.annotations = { ...(p.metadata.annotations ?? {}), ...annotations };
        setCondition(p, ctx.server.clock.rfc3339());
        p.metadata.resourceVersion = typeof meta.resourceVersion === 'string' && meta.resourceVersion ? meta.resourceVersion : undefined;
        if (p.metadata.resourceVersion === undefined) delete p.metadata.resourceVersion;
        return p;
      },
    });
  } catch (err) {
    if (isStatusError(err)) throw err;
    throw conflictError(PODS_BINDING, t.name, err instanceof Error ? err.message : String(err));
  }
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
}
