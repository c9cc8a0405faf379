/**
 * The manifest files that -f paths name, as kubectl reads them: a file as given (whatever its
 * extension), a folder's .yaml, .yml and .json files in name order, its subfolders only with
 * `recursive` (kubectl's -R).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const MANIFEST_EXTENSIONS = /\.(ya?ml|json)$/;

/**
 * The files in argument order, or kubectl's error for the first path that does not exist or,
 * as kubectl's resource builder says, for paths that name no manifest file at all.
 */
export function manifestFiles(paths: readonly string[], options: { recursive?: boolean } = {}): string[] | string {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      // A dangling link is not a folder: it is listed, and reading it reports the error.
      if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
        if (options.recursive) walk(path);
      } else if (MANIFEST_EXTENSIONS.test(entry)) {
        out.push(path);
      }
    }
  };
  for (const path of paths) {
    let st;
    try {
      st = statSync(path);
    } catch {
      return `error: the path ${JSON.stringify(path)} does not exist`;
    }
    if (st.isDirectory()) walk(path);
    else out.push(path);
    if (out.length === 0) return `error: error reading [${path}]: recognized file extensions are [.json .yaml .yml]`;
  }
  return out;
}
