/**
 * A CEL compile error's place in the YAML: `ERROR: <input>:L:C:` counts in the expression's
 * value (code points, after YAML's quoting, escapes, folding and block indentation are undone);
 * this finds the source character that value character came from, so that the diagnostic sits
 * under the character cel-go points at rather than on the whole expression.
 */
import type { SourceRange } from '../../engine/apiserver/decode';

const COMPILE_ERROR = /(?:^|: )compilation failed: ERROR: <input>:(\d+):(\d+):/;

/** The CEL position of a compile error's first issue, if the detail holds one. */
export function celErrorLocation(detail: string): { line: number; column: number } | undefined {
  const m = COMPILE_ERROR.exec(detail);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : undefined;
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  return offset + column - 1;
}

/** For each character of the scalar's value, the source offset it came from. */
function valueOffsets(text: string, start: number, end: number): number[] {
  const src = text.slice(start, end);
  const out: number[] = [];
  const first = src[0];
  if (first === '|' || first === '>') {
    const lines = src.split('\n');
    let offset = start + lines[0]!.length + 1;
    let indent = -1;
    for (let i = 1; i < lines.length; i++) {
      const l = lines[i]!;
      if (indent < 0 && l.trim() !== '') indent = l.length - l.trimStart().length;
      const skip = Math.min(Math.max(indent, 0), l.length);
      for (let c = skip; c < l.length; c++) out.push(offset + c);
      if (i < lines.length - 1) out.push(offset + l.length);
      offset += l.length + 1;
    }
    return out;
  }
  if (first === '"' || first === "'") {
    for (let i = 1; i < src.length - 1; i++) {
      const ch = src[i]!;
      if (first === "'" && ch === "'" && src[i + 1] === "'") {
        out.push(start + i);
        i++;
      } else if (first === '"' && ch === '\\') {
        out.push(start + i);
        const next = src[i + 1];
        i += next === 'x' ? 3 : next === 'u' ? 5 : next === 'U' ? 9 : 1;
      } else if (ch === '\n') {
        // a line break folds into one space; the next line's indentation is dropped
        out.push(start + i);
        while (src[i + 1] === ' ' || src[i + 1] === '\t') i++;
      } else {
        out.push(start + i);
      }
    }
    return out;
  }
  for (let i = 0; i < src.length; i++) {
    if (src[i] === '\n') {
      out.push(start + i);
      while (src[i + 1] === ' ' || src[i + 1] === '\t') i++;
    } else out.push(start + i);
  }
  return out;
}

/**
 * The one-character range in the YAML of a CEL position inside the scalar at `value`.
 * `trimmed`: the API server compiled the value with its surrounding whitespace removed.
 */
export function celRange(text: string, value: SourceRange, loc: { line: number; column: number }, trimmed = false): SourceRange | undefined {
  const start = offsetOf(text, value.line, value.column);
  const end = offsetOf(text, value.endLine, value.endColumn);
  const offsets = valueOffsets(text, start, end);
  if (offsets.length === 0) return undefined;
  const decoded = offsets.map((o) => text[o] ?? '');
  let i = 0;
  if (trimmed) while (i < decoded.length && /\s/.test(decoded[i]!)) i++;
  for (let l = 1; l < loc.line && i < decoded.length; i++) if (decoded[i] === '\n') l++;
  for (let c = 1; c < loc.column && i < decoded.length; c++) {
    // a surrogate pair is one code point
    const code = decoded[i]!.charCodeAt(0);
    i += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
  }
  const at = i < offsets.length ? offsets[i]! : offsets[offsets.length - 1]! + 1;
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const line = text.slice(0, lineStart).split('\n').length;
  const column = at - lineStart + 1;
  return { line, column, endLine: line, endColumn: column + 1 };
}
