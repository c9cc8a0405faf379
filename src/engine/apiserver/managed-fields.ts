/**
 * The field manager around every write (apply/): who the writer is (?fieldManager, else the
 * user agent's product name), and the managedFields entry an update, create or non-apply patch
 * leaves. The main resource may not own status, the status subresource may not own spec.
 */
import { schemaForKind } from '../api/openapi';
import type { KubeObject } from '../api/types';
import { field, FieldSet, keepUnchangedTimestamps, managerOrUserAgent, updateManagedFields, type FieldManagerScope } from './apply';
import type { RequestContext, Target } from './context';
import { encodeLikeGo } from './encoding/go-json';
import { hasSubresource } from './resources';

const STATUS_ONLY = FieldSet.of([field('status')]);
const SPEC_ONLY = FieldSet.of([field('spec')]);

export function managerName(ctx: RequestContext): string {
  return managerOrUserAgent(ctx.options.fieldManager, ctx.request.userAgent ?? '');
}

export function fieldManagerScope(ctx: RequestContext, t: Target): FieldManagerScope | undefined {
  const schema = schemaForKind(t.info.group, t.info.version, t.info.kind) ?? ctx.server.customResources.forResource(t.info)?.schemaNode;
  if (!schema) return undefined;
  let resetFields: FieldSet | undefined;
  if (t.subresource === 'status') resetFields = SPEC_ONLY;
  else if (!t.subresource && hasSubresource(t.info, 'status')) resetFields = STATUS_ONLY;
  return {
    schema,
    gvk: { group: t.info.group, version: t.info.version, kind: t.info.kind },
    subresource: t.subresource || undefined,
    resetFields,
    now: ctx.server.clock.now(),
  };
}

/**
 * FieldManager.UpdateNoErrors: the object with the writer's Update entry in managedFields. The
 * fields are those of the object as decoded into its Go type (no empty omitempty fields).
 */
export function trackWrite(ctx: RequestContext, t: Target, live: KubeObject | undefined, updated: KubeObject): KubeObject {
  const scope = fieldManagerScope(ctx, t);
  if (!scope) return updated;
  return updateManagedFields({ ...scope, live, updated: encodeLikeGo(updated), manager: managerName(ctx) });
}

export { keepUnchangedTimestamps };
