/** Positions in the file and in the documents cut from it. */
import type { Position, Range } from 'vscode-languageserver';
import type { Unit } from './validation/file-validator';

export type { Unit };

/** The document that holds a file position. */
export function unitAt(units: readonly Unit[], position: Position): Unit | undefined {
  return units.find((u) => {
    const line = position.line - u.line + 1;
    return line >= u.doc.range.line && line <= u.doc.range.endLine;
  });
}

/** A file position as an offset into the unit's text. */
export function offsetAt(unit: Unit, position: Position): number {
  let offset = 0;
  // Lines end at LF, CRLF or a lone CR (the protocol's line ends).
  const breaks = /\r\n|\r|\n/g;
  for (let line = unit.line; line < position.line; line++) {
    breaks.lastIndex = offset;
    const m = breaks.exec(unit.text);
    if (!m) return unit.text.length;
    offset = m.index + m[0].length;
  }
  return offset + position.character;
}

/** An offset into the unit's text as a file position. */
export function positionAt(unit: Unit, offset: number): Position {
  const p = unit.doc.lines.position(offset);
  return { line: unit.line + p.line - 1, character: p.column - 1 };
}

export function rangeOf(unit: Unit, start: number, end: number): Range {
  return { start: positionAt(unit, start), end: positionAt(unit, end) };
}
