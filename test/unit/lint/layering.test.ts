/**
 * The import layering of docs/architecture.md ("Layers"), checked on every relative import
 * (and re-export) of src/ and webview/:
 * - each folder of the engine has a rank; a module imports its own folder or a lower rank. Folders
 *   of one rank are peers and do not import each other (the controllers, the scheduler and the
 *   kubelets meet only through the API; what two of them share lives in a lower layer);
 * - a controller does not import another controller's folder: what controllers share is in
 *   src/engine/controllers/util/, which imports no controller;
 * - the faces (protocol, host, http, server, cli, extension) sit above the engine; nothing in the
 *   engine imports them, and the language server and the CLI do not import each other;
 * - the webview imports only webview/ and src/protocol/ (its one door to the engine);
 * - `vscode` is imported by src/extension/ alone;
 * - the few rules inside one folder that ranks cannot say (BANS below).
 * A new top-level folder or file of src/ must be given a rank here before it can be imported.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');

/** Path prefixes (repo-relative, '/'-separated) and their rank, bottom up. The longest prefix wins. */
export const RANKS: readonly (readonly [string, number])[] = [
  ['src/engine/api/', 0],
  ['src/engine/clock.ts', 1],
  ['src/engine/random.ts', 1],
  ['src/engine/component-helpers/', 1],
  ['src/engine/printers/', 1],
  ['src/engine/trace/', 2],
  ['src/engine/cel/', 3],
  ['src/engine/store/', 3],
  ['src/engine/apiserver/', 4],
  ['src/engine/client/', 5],
  ['src/engine/controllers/', 6],
  ['src/engine/scheduler/', 6],
  ['src/engine/kubelet/', 6],
  ['src/engine/components/', 7],
  ['src/engine/timeline/', 7],
  ['src/engine/kubectl/', 7],
  ['src/engine/cluster.ts', 8],
  ['src/engine/cluster-readiness.ts', 7],
  ['src/engine/pacer.ts', 8],
  ['src/engine/step.ts', 8],
  ['src/engine/validator/', 8],
  ['src/protocol/', 9],
  ['src/host/', 9],
  ['src/http/', 9],
  ['src/etcd-grpc/', 9],
  ['src/server/', 10],
  ['src/cli/', 10],
  ['src/extension/', 11],
  ['webview/model/', 12],
  ['webview/ui/', 13],
  ['webview/main.ts', 14],
];

/** Imports that ranks allow but the architecture does not: [from prefix, to prefix, why]. */
export const BANS: readonly (readonly [string, string, string])[] = [
  ['webview/', 'src/', 'the webview reaches the engine through src/protocol/ only'],
  ['src/engine/store/types.ts', 'src/engine/store/memory/', 'the Store interface does not know its backends'],
  ['src/engine/store/types.ts', 'src/engine/store/etcdserver/', 'the Store interface does not know its backends'],
  ['src/engine/store/types.ts', 'src/engine/store/etcd', 'the Store interface does not know its backends'],
];

/** Imports that break a rule today, each with its reason; an entry no import needs any more fails the test. */
export const EXCEPTIONS: readonly (readonly [string, string, string])[] = [
  // Type-only. CEL's authz library checks through the API server's Authorizer with a request's
  // user, as k8s.io/apiserver/pkg/cel/library does; the two types would move below both.
  ['src/engine/cel/library/authz.ts', 'src/engine/apiserver/authn/user.ts', 'type-only: UserInfo'],
  ['src/engine/cel/library/authz.ts', 'src/engine/apiserver/authz/types.ts', 'type-only: Authorizer, Attributes, Decision'],
  // Type-only. The trace's union names every component's record; the scheduler's and etcd's
  // records are declared beside what writes them.
  ['src/engine/trace/types.ts', 'src/engine/scheduler/record.ts', "type-only: the scheduler's records in the TraceRecord union"],
  ['src/engine/trace/etcd.ts', 'src/engine/store/raft/types.ts', "type-only: Raft's MessageType in the etcd message record"],
];

export interface Edge {
  from: string;
  to: string;
}

function rankOf(file: string): { prefix: string; rank: number } | undefined {
  let best: { prefix: string; rank: number } | undefined;
  for (const [prefix, rank] of RANKS) if (file.startsWith(prefix) && (!best || prefix.length > best.prefix.length)) best = { prefix, rank };
  return best;
}

const controllerFolder = (file: string): string | undefined => /^src\/engine\/controllers\/([^/]+)\//.exec(file)?.[1];

/** What is wrong with one import, or undefined. */
export function violation(edge: Edge): string | undefined {
  const { from, to } = edge;
  for (const [f, t, why] of BANS) if (from.startsWith(f) && to.startsWith(t) && !(f === 'webview/' && to.startsWith('src/protocol/'))) return why;
  const a = rankOf(from);
  const b = rankOf(to);
  if (!a) return `${from} is in no layer (give its folder a rank in test/unit/lint/layering.test.ts and docs/architecture.md)`;
  if (!b) return `${to} is in no layer (give its folder a rank in test/unit/lint/layering.test.ts and docs/architecture.md)`;
  const ca = controllerFolder(from);
  const cb = controllerFolder(to);
  if (cb !== undefined && ca !== undefined && ca !== cb && cb !== 'util') return `controllers/${ca} imports controllers/${cb}: what controllers share belongs in controllers/util/`;
  if (cb !== undefined && cb !== 'util' && ca === 'util') return 'controllers/util/ imports a controller';
  if (a.prefix === b.prefix) return undefined;
  if (b.rank > a.rank) return `${a.prefix} (layer ${a.rank}) imports upward into ${b.prefix} (layer ${b.rank})`;
  if (b.rank === a.rank) return `${a.prefix} imports its peer ${b.prefix} (layer ${a.rank}): peers meet through a lower layer`;
  return undefined;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function resolveImport(fromFile: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const c of [base, `${base}.ts`, `${base}.mts`, path.join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return undefined;
}

const rel = (p: string): string => path.relative(ROOT, p).split(path.sep).join('/');

interface Scan {
  edges: Edge[];
  vscode: string[];
  unresolved: string[];
}

function scan(): Scan {
  const files = [...walk(path.join(ROOT, 'src')), ...walk(path.join(ROOT, 'webview'))];
  const out: Scan = { edges: [], vscode: [], unresolved: [] };
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    for (const imp of info.importedFiles) {
      const spec = imp.fileName;
      if (spec === 'vscode' && !rel(file).startsWith('src/extension/')) out.vscode.push(rel(file));
      if (!spec.startsWith('.')) continue;
      if (/\.(css|json|svg|png)$/.test(spec)) continue;
      const target = resolveImport(file, spec);
      if (!target) out.unresolved.push(`${rel(file)}: ${spec}`);
      else out.edges.push({ from: rel(file), to: rel(target) });
    }
  }
  return out;
}

describe('lint: import layering (docs/architecture.md, Layers)', function () {
  this.timeout(60_000);
  const found = scan();

  it('finds the imports it checks', () => {
    assert.ok(found.edges.length > 2000, `only ${found.edges.length} imports found`);
    assert.deepEqual(found.unresolved, []);
  });

  it('layers only point down, and no controller imports another', () => {
    const excepted = new Set(EXCEPTIONS.map(([f, t]) => `${f} ${t}`));
    const bad = found.edges
      .filter((e) => !excepted.has(`${e.from} ${e.to}`))
      .map((e) => [e, violation(e)] as const)
      .filter(([, why]) => why !== undefined)
      .map(([e, why]) => `${e.from} -> ${e.to}: ${why}`);
    assert.deepEqual(bad, []);
  });

  it('keeps no exception that no import needs', () => {
    const needed = new Set(found.edges.filter((e) => violation(e) !== undefined).map((e) => `${e.from} ${e.to}`));
    assert.deepEqual(EXCEPTIONS.filter(([f, t]) => !needed.has(`${f} ${t}`)), []);
  });

  it('imports vscode only in src/extension/', () => {
    assert.deepEqual(found.vscode, []);
  });

  it('catches what it is for', () => {
    const cases: [Edge, boolean][] = [
      [{ from: 'src/engine/controllers/job/controller.ts', to: 'src/engine/controllers/replicaset/types.ts' }, true],
      [{ from: 'src/engine/controllers/job/controller.ts', to: 'src/engine/controllers/util/expectations.ts' }, false],
      [{ from: 'src/engine/controllers/util/types.ts', to: 'src/engine/controllers/job/types.ts' }, true],
      [{ from: 'src/engine/controllers/job/controller.ts', to: 'src/engine/controllers/job/types.ts' }, false],
      [{ from: 'src/engine/controllers/daemonset/predicates.ts', to: 'src/engine/scheduler/api.ts' }, true],
      [{ from: 'src/engine/api/labels.ts', to: 'src/engine/apiserver/server.ts' }, true],
      [{ from: 'src/engine/apiserver/server.ts', to: 'src/engine/api/labels.ts' }, false],
      [{ from: 'src/engine/cluster.ts', to: 'src/extension/extension.ts' }, true],
      [{ from: 'src/server/main.ts', to: 'src/cli/validate.ts' }, true],
      [{ from: 'webview/model/rows.ts', to: 'src/engine/trace/apiserver.ts' }, true],
      [{ from: 'webview/model/rows.ts', to: 'src/protocol/trace-records.ts' }, false],
      [{ from: 'webview/model/rows.ts', to: 'webview/ui/app.ts' }, true],
      [{ from: 'src/engine/store/types.ts', to: 'src/engine/store/memory/snapshot.ts' }, true],
      [{ from: 'src/engine/newthing/x.ts', to: 'src/engine/api/labels.ts' }, true],
    ];
    for (const [edge, bad] of cases) assert.equal(violation(edge) !== undefined, bad, `${edge.from} -> ${edge.to}`);
  });
});
