/** Offsets to line and column, for positions in manifests and bodies. */

/** 1-based lines and columns (UTF-16 code units); the end is just past the last character. */
export interface SourceRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  /** 1-based line and column of an offset. */
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }

  range(start: number, end: number): SourceRange {
    const a = this.position(start);
    const b = this.position(end);
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }
}
