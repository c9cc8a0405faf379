/** "unknown field": delete the entry (its whole lines, when it stands on lines of its own). */
import { fieldSegments, entry, nodeAtPath } from '../yaml-tree';
import { rangeOf } from '../units';
import { quickFix } from './edit';
import type { QuickFix } from './types';

export const unknownField: QuickFix = (ctx) => {
  if (ctx.diagnostic.code !== 'Unknown field' || !ctx.field) return [];
  const segments = fieldSegments(ctx.root, ctx.field);
  const key = segments.at(-1);
  const parent = nodeAtPath(ctx.root, segments.slice(0, -1));
  const e = typeof key === 'string' ? entry(parent, key) : undefined;
  if (!e || ctx.unit.text[parent!.start] === '{') return [];
  const text = ctx.unit.text;
  const lineStart = Math.max(text.lastIndexOf('\n', e.keySpan.start - 1), text.lastIndexOf('\r', e.keySpan.start - 1)) + 1;
  if (text.slice(lineStart, e.keySpan.start).trim() !== '') return [];
  let end = e.value.end;
  while (end > e.keySpan.end && /\s/.test(text[end - 1]!)) end--;
  // The line ends at LF, CRLF or a lone CR.
  const m = /\r\n|\r|\n/g;
  m.lastIndex = end;
  const brk = m.exec(text);
  const lineEnd = brk ? brk.index + brk[0].length : text.length;
  return quickFix(ctx, `Remove unknown field ${key}`, [{ range: rangeOf(ctx.unit, lineStart, lineEnd), newText: '' }]);
};
