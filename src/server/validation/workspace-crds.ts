/**
 * The CustomResourceDefinitions of the workspace: every YAML file of the workspace folders is
 * read once at start (bounded: at most MAX_FILES files of at most MAX_FILE_BYTES, skipping
 * node_modules and dot-directories) and again when it changes, and its CRD documents are kept
 * by file. A file's custom resources are then checked as if those CRDs (from the other files)
 * had been applied before it, as `kubesim validate` and `kubectl apply -f dir/` see a folder.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseManifest, type ManifestDocument } from '../../engine/apiserver/decode';
import { isCrdDocument, looksLikeManifest } from './identify';
import { splitDocuments } from './split';

export const MAX_FILES = 5_000;
export const MAX_FILE_BYTES = 1024 * 1024;
const SKIPPED_DIRS = new Set(['node_modules']);
const YAML = /\.ya?ml$/i;
/** A cheap test before parsing: only files that name the kind are parsed. */
const MENTIONS_CRD = /kind:\s*["']?CustomResourceDefinition\b/;

interface FileCrds {
  readonly docs: readonly ManifestDocument[];
  readonly hash: string;
}

export class WorkspaceCrds {
  private readonly byFile = new Map<string, FileCrds>();

  /** The CRD documents of `text` (a file's content). */
  static parse(fileName: string, text: string): ManifestDocument[] {
    if (!MENTIONS_CRD.test(text)) return [];
    const out: ManifestDocument[] = [];
    for (const chunk of splitDocuments(text)) {
      if (!MENTIONS_CRD.test(chunk.text)) continue;
      for (const doc of parseManifest(chunk.text, fileName)) if (looksLikeManifest(doc, chunk.text) && isCrdDocument(doc) && doc.errors.length === 0) out.push(doc);
    }
    return out;
  }

  /** Records a file's content; whether its CRDs changed. */
  update(file: string, text: string): boolean {
    const docs = WorkspaceCrds.parse(path.basename(file), text);
    const hash = createHash('sha1').update(docs.map((d) => JSON.stringify(d.object)).join('\n')).digest('base64');
    const prev = this.byFile.get(file);
    if (docs.length === 0) {
      if (!prev) return false;
      this.byFile.delete(file);
      return true;
    }
    if (prev && prev.hash === hash) return false;
    this.byFile.set(file, { docs, hash });
    return true;
  }

  /** Forgets a file; whether it had CRDs. */
  remove(file: string): boolean {
    return this.byFile.delete(file);
  }

  /** The CRDs of every file but `file`, in file order. */
  others(file: string): ManifestDocument[] {
    return [...this.byFile.keys()]
      .filter((f) => f !== file)
      .sort()
      .flatMap((f) => this.byFile.get(f)!.docs);
  }

  /** Reads every YAML file under the folders (bounded), recording their CRDs. */
  async scan(folders: readonly string[], isOpen: (file: string) => boolean): Promise<void> {
    let seen = 0;
    const walk = async (dir: string): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (seen >= MAX_FILES) return;
        const full = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name.startsWith('.') || SKIPPED_DIRS.has(e.name)) continue;
          await walk(full);
        } else if (e.isFile() && YAML.test(e.name)) {
          seen++;
          // an open file is known by its editor text, not what is on disk
          if (isOpen(full)) continue;
          await this.read(full);
        }
      }
    };
    for (const f of folders) await walk(f);
  }

  /** Reads one file from disk (a watched change); whether its CRDs changed. */
  async read(file: string): Promise<boolean> {
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return this.remove(file);
      return this.update(file, await fs.readFile(file, 'utf8'));
    } catch {
      return this.remove(file);
    }
  }
}
