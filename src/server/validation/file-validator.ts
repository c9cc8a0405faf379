/**
 * Diagnostics for one open file: what the Apply command would answer. Each document is sent as
 * Apply sends it (server-side apply, field manager kubesim, the editor's field validation, the
 * current user) in dry run, in order, each seeing what the documents above it created, against
 * the mirror of the live cluster. An applied, unchanged document is therefore clean, and a
 * change the API server forbids shows its update error. Results are cached per document (its
 * text, the user, the field validation, and what it depends on: the mirror's state for it and
 * the earlier documents that affect it), so an edit revalidates the edited document only.
 *
 * Documents whose objects others depend on (namespaces, RBAC, quotas, Services that claim
 * addresses; see dependencies.ts) are really created, in a private copy of the mirror kept per
 * file; everything else is a dry run against that copy, or against the mirror itself when the
 * file has no such documents.
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from 'vscode-languageserver';
import { Validator } from '../../engine/validator/validator';
import type { UserInfo } from '../../engine/apiserver/authn/user';
import type { FieldValidation } from '../../engine/apiserver/decode';
import { parseManifest, type ManifestDocument } from '../../engine/apiserver/decode';
import type { ApiServer } from '../../engine/apiserver/server';
import type { MirrorCluster } from '../mirror/mirror-cluster';
import { affects, identityKey, persists, type DocumentIdentity } from './dependencies';
import { reportDiagnostics, shift } from './diagnostics';
import { identify, isCrdDocument, looksLikeManifest } from './identify';
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

/** Who applies, and how: what the editor's Apply command would send. */
export interface ApplyContext {
  user: UserInfo;
  /** The kubesim.fieldValidation setting. */
  fieldValidation: FieldValidation;
}

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

  /**
   * CustomResourceDefinitions from other files of the workspace, checked as if applied before
   * this file (WorkspaceCrds); their custom resources here are known by them.
   */
  private preamble: readonly ManifestDocument[] = [];

  setPreamble(crds: readonly ManifestDocument[]): void {
    this.preamble = crds;
  }

  /** Splits and parses the text, reusing documents whose text is unchanged. */
  analyze(text: string): Unit[] {
    const parsed = new Map<string, ManifestDocument[]>();
    const units: Unit[] = [];
    const crds: ManifestDocument[] = [...this.preamble];
    for (const chunk of splitDocuments(text)) {
      const docs = parsed.get(chunk.text) ?? this.parsed.get(chunk.text) ?? parseManifest(chunk.text, this.fileName);
      parsed.set(chunk.text, docs);
      for (const doc of docs) {
        const validated = looksLikeManifest(doc, chunk.text);
        const unit: Unit = { doc, text: chunk.text, line: chunk.line, validated };
        // A custom resource below its CRD is known by that CRD (which is stored, established and served first).
        const id = validated ? identify(doc, this.mirror.server.registry, crds) : undefined;
        if (validated && isCrdDocument(doc)) crds.push(doc);
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
  async validate(text: string, as: ApplyContext, isCurrent: () => boolean): Promise<Diagnostic[]> {
    const own = this.analyze(text).filter((u) => u.validated);
    // the workspace's CRDs from other files come first, stored (and established) in the copy
    const registry = this.mirror.server.registry;
    const preamble: Unit[] = this.preamble.map((doc) => {
      const unit: Unit = { doc, text: '', line: 0, validated: true };
      const id = identify(doc, registry);
      if (id) unit.identity = id;
      return unit;
    });
    const keyed = this.cacheKeys([...preamble, ...own], as, preamble.length);
    const needed = keyed.filter((k) => !this.results.has(k.key));
    if (needed.length > 0) await this.run(keyed, new Set(needed.map((k) => k.key)), as, isCurrent);
    this.results = new Map(keyed.map((k) => [k.key, this.results.get(k.key)!]));
    return keyed.slice(preamble.length).flatMap((k) => this.results.get(k.key)!.map((d) => shift(d, k.unit.line)));
  }

  dispose(): void {
    void this.fork?.server.close();
    this.fork = undefined;
  }

  /** `stored`: how many leading units are the preamble's, always stored and never reported. */
  private cacheKeys(units: Unit[], as: ApplyContext, stored = 0): Keyed[] {
    const userKey = `${as.user.username}\n${as.user.groups.join(',')}\n${as.fieldValidation}`;
    const ids = units.map((u) => (u.identity ? identityKey(u.identity) : undefined));
    const keyed: Keyed[] = [];
    units.forEach((unit, i) => {
      const textHash = i < stored ? hash(`preamble\n${unit.doc.fileName}\n${JSON.stringify(unit.doc.object)}`) : hash(unit.text) + '#' + unit.doc.index;
      const id = unit.identity;
      const persisting = i < stored || (id !== undefined && (persists(id) || (ids[i] !== undefined && ids.indexOf(ids[i], i + 1) > i)));
      const deps: string[] = [];
      if (id) for (let j = 0; j < i; j++) if (keyed[j]!.persisting && units[j]!.identity && affects(units[j]!.identity!, id)) deps.push(keyed[j]!.key);
      const mirrorState = `${this.mirror.contextGeneration}:${ids[i] ? this.mirror.lastChange(ids[i]) : 0}`;
      keyed.push({ unit, persisting, key: hash([textHash, userKey, mirrorState, ...deps].join('\n')) });
    });
    return keyed;
  }

  private async run(keyed: Keyed[], needed: Set<string>, as: ApplyContext, isCurrent: () => boolean): Promise<void> {
    const stored = keyed.filter((k) => k.persisting);
    const check = async (server: ApiServer, k: Keyed, dryRun: boolean) => {
      if (!isCurrent()) throw new Cancelled();
      const report = await new Validator(server, false, { dryRun, user: as.user, apply: { fieldValidation: as.fieldValidation } }).validateDocument(k.unit.doc);
      // another file's CRD: its diagnostics belong to that file
      if (k.unit.text === '' && k.persisting) this.results.set(k.key, []);
      else if (needed.has(k.key)) {
        const diagnostics = reportDiagnostics(k.unit.doc, k.unit.text, report);
        this.results.set(k.key, diagnostics.map((d) => ({ ...d, message: this.mirror.liveText(d.message) })));
      }
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
