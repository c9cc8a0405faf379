/** The two admission phases as a handler runs them, with the request's attributes. */
import type { KubeObject } from '../../api/types';
import { runAdmission } from '../admission/chain';
import type { AdmissionAttributes, Operation } from '../admission/types';
import type { RequestContext, Target } from '../context';

export function admissionAttributes(
  ctx: RequestContext,
  t: Target,
  operation: Operation,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
): AdmissionAttributes {
  return {
    operation,
    group: t.info.group,
    version: t.info.version,
    kind: t.info.kind,
    resource: t.info.resource,
    subresource: t.subresource,
    namespace: t.namespace,
    name: t.name || (operation === 'CREATE' ? object?.metadata.name ?? '' : ''),
    object,
    oldObject,
    dryRun: ctx.dryRun,
    user: ctx.user!,
    warn: (message) => ctx.warn(message),
    annotate: (key, value) => ctx.annotate(key, value),
  };
}

export function mutate(ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
  return runAdmission('admit', ctx.server.admission, a, ctx.server.admissionContext, (r) => ctx.stage(r));
}

export function validate(ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
  return runAdmission('validate', ctx.server.admission, a, ctx.server.admissionContext, (r) => ctx.stage(r));
}
