/**
 * "`selector` does not match template `labels`": either add the selector's labels to the pod
 * template, or make the selector select the template's labels.
 */
import type { SourceNode } from '../../engine/apiserver/decode';
import { entry, nodeAtPath } from '../yaml-tree';
import { quickFix } from './edit';
import type { FixContext, QuickFix } from './types';
import { addEntry, entryLines, replaceNode, scalar, setPath } from './yaml-edit';

const MISMATCH = '`selector` does not match template `labels`';

function labels(node: SourceNode | undefined): Array<[string, string]> {
  if (node?.kind !== 'object') return [];
  const out = new Map<string, string>();
  for (const e of node.entries) if (e.value.kind === 'string' || e.value.kind === 'number' || e.value.kind === 'bool') out.set(e.key, String((e.value as { value: unknown }).value));
  return [...out];
}

/** Sets each label in a mapping, replacing values of keys it has and adding the others. */
function setLabels(ctx: FixContext, mapping: SourceNode | undefined, path: string[], wanted: Array<[string, string]>) {
  if (!mapping) return [setPath(ctx.unit, ctx.root, path, Object.fromEntries(wanted.map(([k, v]) => [k, scalar(v)])))];
  return wanted.map(([k, v]) => {
    const existing = entry(mapping, k);
    if (existing) return existing.value.kind === 'string' && existing.value.value === v ? undefined : replaceNode(ctx.unit, existing.value, scalar(v));
    return addEntry(ctx.unit, mapping, k, scalar(v));
  });
}

export const selectorLabels: QuickFix = (ctx) => {
  if (!ctx.diagnostic.message.includes(MISMATCH)) return [];
  const selectorPath = ['spec', 'selector', 'matchLabels'];
  const templatePath = ['spec', 'template', 'metadata', 'labels'];
  const selector = nodeAtPath(ctx.root, selectorPath);
  const template = nodeAtPath(ctx.root, templatePath);
  const wanted = labels(selector);
  const have = labels(template);
  const actions = quickFix(ctx, 'Add the selector’s labels to the pod template', setLabels(ctx, template, templatePath, wanted), true);
  if (have.length > 0 && selector?.kind === 'object' && selector.entries.length > 0 && ctx.unit.text[selector.start] !== '{') {
    // The selector becomes exactly the template's labels, written where matchLabels' entries are.
    const indent = ctx.unit.doc.lines.position(selector.entries[0]!.keySpan.start).column - 1;
    const body = have.map(([k, v]) => entryLines(k, scalar(v), indent)).join('\n').trimStart() + '\n';
    actions.push(...quickFix(ctx, 'Make the selector match the pod template’s labels', [replaceNode(ctx.unit, selector, body)]));
  } else if (have.length > 0) {
    actions.push(...quickFix(ctx, 'Make the selector match the pod template’s labels', [setPath(ctx.unit, ctx.root, selectorPath, Object.fromEntries(have.map(([k, v]) => [k, scalar(v)])))]));
  }
  return actions;
};
