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
  for (let line = unit.line; line < position.line; line++) {
    const nl = unit.text.indexOf('\n', offset);
    if (nl < 0) return unit.text.length;
    offset = nl + 1;
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
