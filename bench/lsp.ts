/**
 * `npm run bench -- lsp [--json] [--runs N] [--edits N] [--lines N]`: diagnostics latency of the
 * kubesim language server (dist/server.mjs) next to yaml-language-server 1.25.0 with a JSON Schema
 * built from the same Kubernetes 1.35 OpenAPI data, both driven over stdio LSP in one run, on the
 * same ~1,000-line multi-document manifest with the same edits (interleaved run by run, so both
 * see the same machine load); then which of seven API-server-only mistakes each one reports.
 *
 * Latency is edit sent -> publishDiagnostics received, with a pause after each so that edits
 * never overlap (yaml-language-server waits a fixed 200 ms before it validates; kubesim debounces
 * 15 ms). Each run starts fresh server processes; the first open is reported separately.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient, sleep, type Diag } from './lsp-client';
import { benchManifest, CONTROL, planEdits, SEMANTIC_CASES } from './lsp-manifests';
import { buildKubernetesJsonSchema } from './lsp-schema';
import { Reporter, percentile, type BenchSuite } from './report';

const PAUSE_AFTER_EDIT_MS = 150;

interface ServerUnderTest {
  name: string;
  start(root: string, schemaFile: string): Promise<LspClient>;
  /** Whether a diagnostic reports the mistake in `field`. */
  reports(d: Diag, field: string): boolean;
}

const SERVERS: ServerUnderTest[] = [
  {
    name: 'kubesim',
    start: (root) => LspClient.start({ command: process.execPath, args: [join(__dirname, 'server.mjs'), '--stdio'], rootUri: pathToFileURL(root).href }),
    // A field error ("spec.replicas: Invalid value: ..."), or server-side apply's schema check
    // ("failed to create typed patch object (...): .spec.template.spec.containers: duplicate ...").
    reports: (d, field) => d.message.startsWith(`${field}: `) || d.message.includes(`): .${field}: `),
  },
  {
    name: 'yaml-language-server',
    start: (root, schemaFile) => {
      const bin = createRequire(join(__dirname, '..', 'package.json')).resolve('yaml-language-server/bin/yaml-language-server');
      const yaml = { validate: true, schemas: { [pathToFileURL(schemaFile).href]: ['*.yaml'] }, schemaStore: { enable: false }, kubernetesCRDStore: { enable: false } };
      return LspClient.start({ command: process.execPath, args: [bin, '--stdio'], rootUri: pathToFileURL(root).href, settings: { yaml, '[yaml]': {}, editor: { tabSize: 2 }, http: { proxy: '', proxyStrictSSL: false } } });
    },
    // The schema cannot know these rules: any diagnostic at all counts in its favour.
    reports: () => true,
  },
];

function numberArg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  const v = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const round = (n: number) => Math.round(n * 10) / 10;

async function latencyRun(server: ServerUnderTest, root: string, schemaFile: string, text: string, editCount: number, run: number) {
  const client = await server.start(root, schemaFile);
  const uri = pathToFileURL(join(root, `manifest-${run}.yaml`)).href;
  const open = await client.open(uri, text);
  await sleep(300);
  const lines = text.split('\n');
  const samples: number[] = [];
  let stale = 0;
  for (const edit of planEdits(text, editCount)) {
    const m = edit.pattern.exec(lines[edit.line]!);
    if (!m) throw new Error(`edit pattern ${edit.pattern} not on line ${edit.line + 1}: ${lines[edit.line]}`);
    const r = await client.change(uri, edit.line, m.index, m.index + m[0].length, edit.text);
    lines[edit.line] = lines[edit.line]!.slice(0, m.index) + edit.text + lines[edit.line]!.slice(m.index + m[0].length);
    samples.push(r.ms);
    if ((r.diagnostics.length > 0) !== edit.broken) stale++;
    await sleep(PAUSE_AFTER_EDIT_MS);
  }
  await client.stop();
  return { openMs: open.ms, openDiagnostics: open.diagnostics.length, samples, stale };
}

async function semantic(server: ServerUnderTest, root: string, schemaFile: string) {
  const client = await server.start(root, schemaFile);
  const control = await client.open(pathToFileURL(join(root, 'control.yaml')).href, CONTROL);
  const found: Record<string, string | undefined> = {};
  for (const c of SEMANTIC_CASES) {
    const r = await client.open(pathToFileURL(join(root, `${c.id}.yaml`)).href, c.text);
    found[c.id] = r.diagnostics.find((d) => server.reports(d, c.field))?.message;
  }
  await client.stop();
  return { controlDiagnostics: control.diagnostics.length, found };
}

const suite: BenchSuite = async (args) => {
  const report = Reporter.fromArgs(args);
  const runs = numberArg(args, '--runs', 3);
  const edits = numberArg(args, '--edits', 30);
  const text = benchManifest(numberArg(args, '--lines', 1000));
  const root = mkdtempSync(join(tmpdir(), 'kubesim-lsp-bench-'));
  try {
    const built = buildKubernetesJsonSchema();
    const schemaFile = join(root, 'kubernetes-1.35.schema.json');
    writeFileSync(schemaFile, JSON.stringify(built.schema));
    const lines = text.split('\n').length - 1;
    const documents = text.split('\n---\n').length;
    report.note(`lsp: ${lines} lines, ${documents} documents, ${runs} runs x ${edits} edits per server; schema ${built.definitions} definitions, ${built.kinds} kinds`);

    const results = new Map(SERVERS.map((s) => [s.name, { samples: [] as number[], opens: [] as number[], openDiagnostics: 0, stale: 0 }]));
    for (let run = 0; run < runs; run++) {
      for (const server of SERVERS) {
        const r = await latencyRun(server, root, schemaFile, text, edits, run);
        const acc = results.get(server.name)!;
        acc.samples.push(...r.samples);
        acc.opens.push(r.openMs);
        acc.openDiagnostics = Math.max(acc.openDiagnostics, r.openDiagnostics);
        acc.stale += r.stale;
        report.note(`  run ${run + 1} ${server.name}: open ${round(r.openMs)} ms, edit p50 ${round(percentile([...r.samples].sort((a, b) => a - b), 50))} ms`);
      }
    }
    const p95s: Record<string, number> = {};
    for (const [name, acc] of results) {
      const sorted = [...acc.samples].sort((a, b) => a - b);
      p95s[name] = percentile(sorted, 95);
      report.record({
        bench: 'lsp-latency',
        server: name,
        lines,
        documents,
        edits: sorted.length,
        p50Ms: round(percentile(sorted, 50)),
        p95Ms: round(percentile(sorted, 95)),
        maxMs: round(sorted.at(-1)!),
        firstOpenMedianMs: round(percentile([...acc.opens].sort((a, b) => a - b), 50)),
        diagnosticsOnOpen: acc.openDiagnostics,
        staleResults: acc.stale,
      });
    }

    const found: Record<string, number> = {};
    for (const server of SERVERS) {
      const s = await semantic(server, root, schemaFile);
      found[server.name] = Object.values(s.found).filter((m) => m !== undefined).length;
      for (const c of SEMANTIC_CASES) {
        report.record({ bench: 'lsp-apiserver-rules', server: server.name, case: c.id, found: s.found[c.id] !== undefined, message: s.found[c.id] ?? null });
      }
      report.record({ bench: 'lsp-apiserver-rules-total', server: server.name, found: found[server.name]!, of: SEMANTIC_CASES.length, controlDiagnostics: s.controlDiagnostics });
    }
    const kubesimP95 = p95s.kubesim!;
    report.record({
      bench: 'lsp-summary',
      kubesimP95Ms: round(kubesimP95),
      yamlLanguageServerP95Ms: round(p95s['yaml-language-server']!),
      targetP95Ms: 50,
      meetsTarget: kubesimP95 < 50 && kubesimP95 <= p95s['yaml-language-server']!,
      kubesimFound: found.kubesim!,
      yamlLanguageServerFound: found['yaml-language-server']!,
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};

export default suite;
