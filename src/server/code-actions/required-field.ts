/**
 * "Required value": add the field with a placeholder of its type (`<image>`, 0, {}, []) for the
 * user to fill in; a workload's missing selector is written from its pod template's labels.
 */
import { parseApiVersion } from '../../engine/api/types';
import { schemaAtPath, schemaForKind } from '../../engine/api/openapi';
import { fieldSegments, nodeAtPath, stringAt } from '../yaml-tree';
import { quickFix } from './edit';
import type { QuickFix } from './types';
import { scalar, setPath, type YamlValue } from './yaml-edit';

function placeholder(name: string, type: string | undefined): string {
  switch (type) {
    case 'integer':
    case 'number':
      return '0';
    case 'boolean':
      return 'false';
    case 'object':
      return '{}';
    case 'array':
      return '[]';
    default:
      return `<${name}>`;
  }
}

export const requiredField: QuickFix = (ctx) => {
  if (ctx.diagnostic.code !== 'Required value' || !ctx.field) return [];
  const segments = fieldSegments(ctx.root, ctx.field);
  const name = segments.at(-1);
  if (typeof name !== 'string' || nodeAtPath(ctx.root, segments) !== undefined) return [];
  // Insertion goes below the deepest list item on the path; the rest must be mapping keys.
  let lastIndex = segments.length - 1;
  while (lastIndex >= 0 && typeof segments[lastIndex] !== 'number') lastIndex--;
  const base = lastIndex < 0 ? ctx.root : nodeAtPath(ctx.root, segments.slice(0, lastIndex + 1));
  const keys = segments.slice(lastIndex + 1) as string[];
  if (!base || keys.some((k) => typeof k !== 'string')) return [];
  let value: YamlValue;
  const labels = nodeAtPath(ctx.root, ['spec', 'template', 'metadata', 'labels']);
  if (ctx.field === 'spec.selector' && labels?.kind === 'object' && labels.entries.length > 0) {
    value = { matchLabels: Object.fromEntries(labels.entries.map((e) => [e.key, e.value.kind === 'string' ? scalar(e.value.value) : JSON.stringify((e.value as { value?: unknown }).value ?? '')])) };
  } else {
    const apiVersion = stringAt(ctx.root, ['apiVersion']) ?? '';
    const { group, version } = parseApiVersion(apiVersion);
    const schema = schemaForKind(group, version, stringAt(ctx.root, ['kind']) ?? '');
    value = placeholder(name, schema ? schemaAtPath(schema, segments)?.type : undefined);
  }
  return quickFix(ctx, `Add required field ${name}`, [setPath(ctx.unit, base, keys, value)], true);
};
