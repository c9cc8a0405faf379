/** Names that are not RFC 1123 subdomains or labels: lowercase, `_` and other characters to `-`. */
import { fieldSegments, nodeAtPath } from '../yaml-tree';
import { quickFix } from './edit';
import type { QuickFix } from './types';
import { replaceNode, scalar } from './yaml-edit';

export function toDnsName(name: string, subdomain: boolean): string {
  let s = name.toLowerCase().replace(subdomain ? /[^a-z0-9.-]/g : /[^a-z0-9-]/g, '-');
  if (subdomain) s = s.replace(/\.{2,}/g, '.').replace(/-*\.-*/g, '.');
  s = s.slice(0, subdomain ? 253 : 63).replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return s === '' ? 'name' : s;
}

export const dnsName: QuickFix = (ctx) => {
  if (!/RFC 1123 (subdomain|label)/.test(ctx.diagnostic.message) || !ctx.field) return [];
  const node = nodeAtPath(ctx.root, fieldSegments(ctx.root, ctx.field));
  if (node?.kind !== 'string') return [];
  const fixed = toDnsName(node.value, ctx.diagnostic.message.includes('RFC 1123 subdomain'));
  if (fixed === node.value) return [];
  return quickFix(ctx, `Rename to ${fixed}`, [replaceNode(ctx.unit, node, scalar(fixed))], true);
};
