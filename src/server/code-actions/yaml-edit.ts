/**
 * Text edits that change a parsed document the way a person would: a value replaced in place,
 * an entry added below its siblings with their indentation (or inside `{...}` in flow style),
 * a missing chain of mappings written as nested blocks.
 */
import type { TextEdit } from 'vscode-languageserver';
import type { SourceNode } from '../../engine/apiserver/decode';
import { rangeOf, type Unit } from '../units';
import { entry } from '../yaml-tree';

const RESERVED = /^(true|false|yes|no|on|off|y|n|null|~)$/i;

/** A string as a YAML scalar: plain where that reads back as the same string, quoted otherwise. */
export function scalar(value: string): string {
  const plain = /^[A-Za-z_/][A-Za-z0-9_./-]*$/.test(value) && !RESERVED.test(value);
  return plain ? value : JSON.stringify(value);
}

export function replaceNode(unit: Unit, node: SourceNode, text: string): TextEdit {
  return { range: rangeOf(unit, node.start, node.end), newText: text };
}

function columnOf(unit: Unit, offset: number): number {
  return unit.doc.lines.position(offset).column - 1;
}

/** `key: value` lines (the value may be a nested block) at an indentation. */
export function entryLines(key: string, value: YamlValue, indent: number): string {
  const pad = ' '.repeat(indent);
  if (typeof value === 'string') return `${pad}${scalar(key)}: ${value}`;
  const inner = Object.entries(value).map(([k, v]) => entryLines(k, v, indent + 2));
  return `${pad}${scalar(key)}:\n${inner.join('\n')}`;
}

/** A value to write: YAML text for a scalar or flow value, or a mapping to nest as a block. */
export type YamlValue = string | { [key: string]: YamlValue };

/**
 * Adds an entry to a mapping: after its last entry, at its entries' indentation; inside the
 * braces of a flow mapping. (A key already present is replaced with replaceNode instead.)
 */
export function addEntry(unit: Unit, mapping: SourceNode, key: string, value: YamlValue): TextEdit | undefined {
  if (mapping.kind !== 'object') return undefined;
  const text = unit.text;
  if (text[mapping.start] === '{') {
    const close = text.lastIndexOf('}', mapping.end);
    const flow = typeof value === 'string' ? value : JSON.stringify(value);
    const sep = mapping.entries.length > 0 ? ', ' : '';
    return { range: rangeOf(unit, close, close), newText: `${sep}${scalar(key)}: ${flow}` };
  }
  const first = mapping.entries[0];
  if (!first) return undefined;
  const indent = columnOf(unit, first.keySpan.start);
  let last = mapping.end - 1;
  while (last > mapping.start && /\s/.test(text[last]!)) last--;
  const nl = text.indexOf('\n', last);
  const at = nl < 0 ? text.length : text[nl - 1] === '\r' ? nl - 1 : nl;
  return { range: rangeOf(unit, at, at), newText: `\n${entryLines(key, value, indent)}` };
}

/**
 * Sets `path` (keys only) below `root` to `value`, creating the mappings that are missing below
 * the deepest one that exists.
 */
export function setPath(unit: Unit, root: SourceNode, path: readonly string[], value: YamlValue): TextEdit | undefined {
  let node = root;
  let i = 0;
  for (; i < path.length; i++) {
    const e = entry(node, path[i]!);
    if (!e) break;
    if (i === path.length - 1) return replaceNode(unit, e.value, typeof value === 'string' ? value : JSON.stringify(value));
    node = e.value;
  }
  let nested: YamlValue = value;
  for (let j = path.length - 1; j > i; j--) nested = { [path[j]!]: nested };
  return addEntry(unit, node, path[i]!, nested);
}
