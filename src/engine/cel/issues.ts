/**
 * Compile issues as cel-go prints them (common/error.go, common/errors.go): each error as
 * `ERROR: <input>:LINE:COL: message`, followed by the expression's line and a caret under the
 * column, sorted by position and joined by newlines. Columns count code points, not UTF-16
 * units, and a caret under a wide character is drawn with full-width dots, as cel-go draws it.
 */

export interface CelIssue {
  /** UTF-16 offset into the expression where cel-go places the error; -1 for none. */
  readonly offset: number;
  readonly message: string;
}

const MAX_SNIPPET_LENGTH = 16384;

interface Location {
  line: number;
  /** Zero-based, in code points. */
  column: number;
}

export function locate(expression: string, offset: number): Location {
  let line = 1;
  let column = 0;
  for (let i = 0; i < offset && i < expression.length; i++) {
    const c = expression.charCodeAt(i);
    if (c === 10) {
      line++;
      column = 0;
      continue;
    }
    // a surrogate pair is one code point
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < expression.length) i++;
    column++;
  }
  return { line, column };
}

function snippet(expression: string, line: number): string | undefined {
  const lines = expression.split('\n');
  return lines[line - 1];
}

function display(expression: string, issue: CelIssue): { loc: Location; text: string } {
  // cel-go's NoLocation prints as line -1, column 0 and has no snippet
  if (issue.offset < 0) return { loc: { line: -1, column: -1 }, text: `ERROR: <input>:-1:0: ${issue.message}` };
  const loc = locate(expression, issue.offset);
  let text = `ERROR: <input>:${loc.line}:${loc.column + 1}: ${issue.message}`;
  const src = snippet(expression, loc.line);
  if (src !== undefined && Buffer.byteLength(src) <= MAX_SNIPPET_LENGTH) {
    const s = src.replace(/\t/g, ' ');
    const chars = Array.from(s);
    let ind = '';
    for (let i = 0; i < loc.column && i < chars.length; i++) ind += isWide(chars[i]!) ? '\uff0e' : '.';
    const at = chars[loc.column];
    ind += at !== undefined && isWide(at) ? '\uff3e' : '^';
    text += `\n | ${s}\n | ${ind}`;
  }
  return { loc, text };
}

/** cel-go draws wide dots under characters that take more than one UTF-8 byte. */
function isWide(ch: string): boolean {
  return (ch.codePointAt(0) ?? 0) > 0x7f;
}

export function formatIssues(expression: string, issues: readonly CelIssue[]): string {
  const shown = issues.map((i) => display(expression, i));
  shown.sort((a, b) => a.loc.line - b.loc.line || a.loc.column - b.loc.column);
  return shown.map((s) => s.text).join('\n');
}
