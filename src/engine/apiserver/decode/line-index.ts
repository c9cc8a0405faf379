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

  /** Lines end at LF, CRLF or a lone CR, as in VS Code, the language server protocol and go-yaml. */
  constructor(text: string) {
    // indexOf finds the breaks natively (a character loop over a multi-megabyte text costs far more).
    let lf = text.indexOf('\n');
    let cr = text.indexOf('\r');
    while (lf >= 0 || cr >= 0) {
      if (cr >= 0 && (lf < 0 || cr < lf)) {
        if (text.charCodeAt(cr + 1) !== 10) this.starts.push(cr + 1);
        cr = text.indexOf('\r', cr + 1);
      } else {
        this.starts.push(lf + 1);
        lf = text.indexOf('\n', lf + 1);
      }
    }
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

  /** The offset of a 1-based line and column (the text's end past the last line). */
  offset(line: number, column: number): number {
    const start = this.starts[Math.min(Math.max(line, 1), this.starts.length) - 1]!;
    return start + column - 1;
  }

  range(start: number, end: number): SourceRange {
    const a = this.position(start);
    const b = this.position(end);
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }
}
