/**
 * How kubectl cuts a YAML file into documents before any YAML is parsed (apimachinery's
 * YAMLReader over a LineReader): it reads lines ending in a line feed ("\r\n" read as "\n"), and a
 * line that starts with `---` ends the document read so far. Only spaces or a comment may follow
 * the `---` ("invalid Yaml document separator: ..." otherwise, which ends the file there, losing
 * the document being read). Each piece then goes to go-yaml's Unmarshal, which reads its first
 * YAML document and nothing after it, with a carriage return as a line break.
 *
 * For most files this is just YAML's own document split. It differs when a file has carriage
 * returns without line feeds (old Mac line endings: the whole file is one line, so one piece, of
 * which only the first YAML document counts), `...` document ends followed by more content, a
 * `---` line with something after it (`--- foo`, `----`), or a byte order mark at the start of a
 * later piece (go-yaml skips one at the start of each): `irregularChunks` says so, and gives the
 * pieces.
 */

export interface YamlChunk {
  /** Offsets into the text; the first piece includes a leading `---` line, later ones start after theirs. */
  start: number;
  end: number;
}

export interface ChunkedYaml {
  chunks: YamlChunk[];
  /** A separator line with content after it: the file ends there, with this error at this offset. */
  separatorError?: { message: string; start: number; end: number };
}

/** Go's unicode.IsSpace, which strings.TrimSpace trims. */
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** The pieces kubectl reads, or undefined when they are exactly YAML's own documents. */
export function irregularChunks(text: string): ChunkedYaml | undefined {
  const lone = /\r(?!\n)|\u0085/.test(text);
  const chunks: YamlChunk[] = [];
  let irregular = lone;
  let chunkStart = 0;
  let empty = true;
  for (let start = 0; start < text.length; ) {
    let eol = text.indexOf('\n', start);
    const next = eol < 0 ? text.length : eol + 1;
    if (eol < 0) eol = text.length;
    // ReadLine drops the "\r" of "\r\n".
    const lineEnd = eol > start && text.charCodeAt(eol - 1) === 13 && eol < text.length ? eol - 1 : eol;
    if (text.startsWith('---', start)) {
      const rest = text.slice(start + 3, lineEnd).replace(GO_SPACE, '');
      if (rest !== '' && rest[0] !== '#') {
        return { chunks, separatorError: { message: `invalid Yaml document separator: ${rest}`, start, end: lineEnd } };
      }
      if (text.startsWith('---', start) && !/^---([ \t].*)?$/s.test(text.slice(start, lineEnd))) irregular = true;
      if (!empty) {
        chunks.push({ start: chunkStart, end: start });
        chunkStart = next;
        empty = true;
        if (text.charCodeAt(next) === 0xfeff) irregular = true;
        start = next;
        continue;
      }
    } else if (text.startsWith('...', start)) {
      irregular = true;
    }
    empty = false;
    start = next;
  }
  if (!empty) chunks.push({ start: chunkStart, end: text.length });
  return irregular ? { chunks } : undefined;
}
