/**
 * Diagnostics for one open file. Its documents are validated in order, each seeing what the
 * documents above it created, against the mirror of the live cluster, as `kubesim validate`
 * does against a fresh cluster. Results are cached per document (its text, the user, and what
 * it depends on: the mirror's state for it and the earlier documents that affect it), so an edit
 * revalidates the edited document only.
 *
 * Documents whose objects others depend on (namespaces, RBAC, quotas, Services that claim
 * addresses; see dependencies.ts) are really created, in a private copy of the mirror kept per
 * file; everything else is a dry run against that copy, or against the mirror itself when the
 * file has no such documents.
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from 'vscode-languageserver';
import { Validator } from '../../cli/validate';
import type { UserInfo } from '../../engine/apiserver/authn/user';
import { parseManifest, type ManifestDocument } from '../../engine/apiserver/decode';
import type { ApiServer } from '../../engine/apiserver/server';
import type { MirrorCluster } from '../mirror/mirror-cluster';
import { affects, identityKey, persists, type DocumentIdentity } from './dependencies';
import { reportDiagnostics, shift } from './diagnostics';
import { identify, looksLikeManifest } from './identify';
import { splitDocuments } from './split';

/** One document of the file, where it is and what it is. */
export interface Unit {
  doc: ManifestDocument;
  /** The text the document was parsed from (a piece of the file). */
  text: string;
  /** 0-based line of `text` in the file. */
  line: number;
  identity?: DocumentIdentity;
  validated: boolean;
}

interface Fork {
  server: ApiServer;
  /** The cache keys of the stored documents, in order. */
  key: string;
  sequence: number;
  contextGeneration: number;
}

export class Cancelled extends Error {}

const hash = (s: string) => createHash('sha1').update(s).digest('base64');
const yieldToEventLoop = () => new Promise<void>((r) => setImmediate(r));

export class FileValidator {
  private parsed = new Map<string, ManifestDocument[]>();
  private results = new Map<string, Diagnostic[]>();
  private fork: Fork | undefined;
  /** The documents of the text last validated (hover and quick fixes read them). */
  units: Unit[] = [];

  constructor(
    readonly fileName: string,
    private readonly mirror: MirrorCluster,
  ) {}

  /** Splits and parses the text, reusing documents whose text is unchanged. */
  analyze(text: string): Unit[] {
    const parsed = new Map<string, ManifestDocument[]>();
    const units: Unit[] = [];
    for (const chunk of splitDocuments(text)) {
      const docs = parsed.get(chunk.text) ?? this.parsed.get(chunk.text) ?? parseManifest(chunk.text, this.fileName);
      parsed.set(chunk.text, docs);
      for (const doc of docs) {
        const validated = looksLikeManifest(doc, chunk.text);
        const unit: Unit = { doc, text: chunk.text, line: chunk.line, validated };
        const id = validated ? identify(doc, this.mirror.server.registry) : undefined;
        if (id) unit.identity = id;
        units.push(unit);
      }
    }
    this.parsed = parsed;
    this.units = units;
    return units;
  }

  /**
   * Diagnostics for the whole text. `isCurrent` is asked between documents: when it says no
   * (the text changed again), the work stops with Cancelled.
   */
  async validate(text: string, user: UserInfo, isCurrent: () => boolean): Promise<Diagnostic[]> {
    const units = this.analyze(text).filter((u) => u.validated);
    const keyed = this.cacheKeys(units, user);
    const needed = keyed.filter((k) => !this.results.has(k.key));
    if (needed.length > 0) await this.run(keyed, new Set(needed.map((k) => k.key)), user, isCurrent);
    this.results = new Map(keyed.map((k) => [k.key, this.results.get(k.key)!]));
    return keyed.flatMap((k) => this.results.get(k.key)!.map((d) => shift(d, k.unit.line)));
  }

  dispose(): void {
    void this.fork?.server.close();
    this.fork = undefined;
  }

  private cacheKeys(units: Unit[], user: UserInfo): Keyed[] {
    const userKey = `${user.username}\n${user.groups.join(',')}`;
    const ids = units.map((u) => (u.identity ? identityKey(u.identity) : undefined));
    const keyed: Keyed[] = [];
    units.forEach((unit, i) => {
      const textHash = hash(unit.text) + '#' + unit.doc.index;
      const id = unit.identity;
      const persisting = id !== undefined && (persists(id) || (ids[i] !== undefined && ids.indexOf(ids[i], i + 1) > i));
      const deps: string[] = [];
      if (id) for (let j = 0; j < i; j++) if (keyed[j]!.persisting && affects(units[j]!.identity!, id)) deps.push(keyed[j]!.key);
      const mirrorState = `${this.mirror.contextGeneration}:${ids[i] ? this.mirror.lastChange(ids[i]) : 0}`;
      keyed.push({ unit, persisting, key: hash([textHash, userKey, mirrorState, ...deps].join('\n')) });
    });
    return keyed;
  }

  private async run(keyed: Keyed[], needed: Set<string>, user: UserInfo, isCurrent: () => boolean): Promise<void> {
    const stored = keyed.filter((k) => k.persisting);
    const check = async (server: ApiServer, k: Keyed, dryRun: boolean) => {
      if (!isCurrent()) throw new Cancelled();
      const report = await new Validator(server, false, { dryRun, user }).validateDocument(k.unit.doc);
      if (needed.has(k.key)) this.results.set(k.key, reportDiagnostics(k.unit.doc, k.unit.text, report));
      await yieldToEventLoop();
    };
    if (stored.length === 0) {
      for (const k of keyed) if (needed.has(k.key)) await check(this.mirror.server, k, true);
      return;
    }
    const forkKey = stored.map((k) => k.key).join('\n');
    if (this.forkServes(forkKey, keyed, needed)) {
      for (const k of keyed) if (needed.has(k.key)) await check(this.fork!.server, k, true);
      return;
    }
    const fork: Fork = { server: await this.mirror.fork(), key: forkKey, sequence: this.mirror.sequence, contextGeneration: this.mirror.contextGeneration };
    try {
      for (const k of keyed) if (k.persisting || needed.has(k.key)) await check(fork.server, k, !k.persisting);
    } catch (err) {
      await fork.server.close();
      throw err;
    }
    this.dispose();
    this.fork = fork;
  }

  /**
   * Whether the kept copy (all storing documents created, the mirror as it was) gives every
   * needed document the answer it would get in order: nothing it depends on comes below it, and
   * neither the mirror's shared objects nor its own object changed since the copy was made.
   */
  private forkServes(forkKey: string, keyed: Keyed[], needed: Set<string>): boolean {
    const f = this.fork;
    if (!f || f.key !== forkKey || f.contextGeneration !== this.mirror.contextGeneration) return false;
    return keyed.every((k, i) => {
      if (!needed.has(k.key)) return true;
      const id = k.unit.identity;
      if (k.persisting || !id) return !k.persisting;
      const idKey = identityKey(id);
      if (idKey && this.mirror.lastChange(idKey) > f.sequence) return false;
      return keyed.slice(i + 1).every((later) => !later.persisting || !affects(later.unit.identity!, id));
    });
  }
}

interface Keyed {
  unit: Unit;
  persisting: boolean;
  key: string;
}
