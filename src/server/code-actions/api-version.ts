/** "no matches for kind "Deployment" in version "extensions/v1beta1"": the versions that serve the kind. */
import { formatApiVersion } from '../../engine/api/types';
import { entry, stringAt } from '../yaml-tree';
import { quickFix } from './edit';
import type { QuickFix } from './types';
import { replaceNode } from './yaml-edit';

export const apiVersionForKind: QuickFix = (ctx) => {
  if (!ctx.diagnostic.message.startsWith('no matches for kind')) return [];
  const kind = stringAt(ctx.root, ['kind']);
  const current = entry(ctx.root, 'apiVersion');
  if (!kind || !current) return [];
  // Discovery order: the preferred version of the highest-priority group first.
  const candidates = [...new Set(ctx.registry.all().filter((r) => r.kind === kind && r.verbs.includes('create')).map((r) => formatApiVersion(r.group, r.version)))];
  return candidates.flatMap((apiVersion, i) => quickFix(ctx, `Change apiVersion to ${apiVersion}`, [replaceNode(ctx.unit, current.value, apiVersion)], i === 0));
};
