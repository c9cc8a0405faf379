/**
 * Cutting a YAML file into its documents by their `---` lines, so that each document is parsed,
 * validated and cached on its own: an edit re-parses one document, not the file. Files with
 * constructs a plain line split could misread (directives, `...` end markers, content on a `---`
 * line, carriage returns without line feeds) stay one piece, which the manifest parser splits itself.
 */

export interface Chunk {
  text: string;
  /** 0-based line of the chunk's first line in the file. */
  line: number;
}

const SEPARATOR = /^---[ \t]*(#.*)?$/;
const UNSPLITTABLE = /^(%|\.\.\.(\s|$)|---[ \t]*[^ \t#\r\n])/m;

export function splitDocuments(text: string): Chunk[] {
  // A carriage return alone ends a line for the editor but not for kubectl's reader: one piece.
  if (UNSPLITTABLE.test(text) || /\r(?!\n)/.test(text)) return [{ text, line: 0 }];
  const chunks: Chunk[] = [];
  let start = 0;
  let startLine = 0;
  let line = 0;
  let at = 0;
  while (at <= text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    const content = text.charCodeAt(end - 1) === 13 ? text.slice(at, end - 1) : text.slice(at, end);
    if (content.startsWith('---') && SEPARATOR.test(content)) {
      chunks.push({ text: text.slice(start, at), line: startLine });
      start = nl === -1 ? text.length : nl + 1;
      startLine = line + 1;
    }
    if (nl === -1) break;
    at = nl + 1;
    line++;
  }
  chunks.push({ text: text.slice(start), line: startLine });
  return chunks;
}
