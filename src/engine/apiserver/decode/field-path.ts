/**
 * apimachinery field paths, as error causes name fields: `spec.template.spec.containers[0].image`,
 * `metadata.labels[app.kubernetes.io/name]`. Bracketed parts are list indexes or map keys (keys
 * may hold dots and slashes); which one is decided by the value the path walks through.
 */

export type PathSegment = { name: string } | { bracket: string };

export function parseFieldPath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  let i = 0;
  let name = '';
  const flush = () => {
    if (name !== '') out.push({ name });
    name = '';
  };
  while (i < path.length) {
    const c = path[i]!;
    if (c === '.') {
      flush();
      i++;
    } else if (c === '[') {
      flush();
      const close = path.indexOf(']', i + 1);
      const end = close < 0 ? path.length : close;
      out.push({ bracket: path.slice(i + 1, end) });
      i = end + 1;
    } else {
      name += c;
      i++;
    }
  }
  flush();
  return out;
}

/** RFC 6901 JSON pointer of a list of keys and indexes: ["metadata", "labels", "a/b"] -> /metadata/labels/a~1b */
export function jsonPointer(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
