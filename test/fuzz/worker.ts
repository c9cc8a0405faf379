/**
 * The fuzz's worker process: runs each mutant it is sent through `kubesim validate` (the CLI's
 * Validator on a validation cluster), `kubesim apply` (server-side apply into a cluster with
 * controllers, a scheduler and a kubelet, then two seconds of virtual time) and the language
 * server (the real server process over stdio: diagnostics, a hover, code actions), and answers
 * with what each said and any problem: a throw, an error that is not Kubernetes-shaped (empty, or
 * JavaScript leaking through: "undefined", "[object Object]", a TypeError's text), a line -1.
 * The driver (main.ts) bounds the time each mutant may take and restarts a worker that hangs.
 */
import { join } from 'node:path';
import { Validator, createValidationCluster, type DocumentReport } from '../../src/engine/validator/validator';
import { createCluster, type Cluster } from '../../src/engine/cluster';
import { applyManifestText, type ApplyResult } from '../../src/engine/kubectl/apply';
import { LspClient } from '../../bench/lsp-client';
import type { Mutant } from './mutate';

export interface TargetOutcome {
  ms: number;
  /** What it answered, counted: "valid", "invalid", "created", "failed", "diagnostics", ... */
  verdicts: Record<string, number>;
}

export interface MutantResult {
  id: number;
  validate: TargetOutcome;
  apply: TargetOutcome;
  lsp: TargetOutcome;
  problems: string[];
}

export type ToWorker = { type: 'run'; mutant: Mutant };
export type FromWorker = { type: 'ready'; lspPid?: number } | { type: 'result'; result: MutantResult };

/** Texts that are JavaScript, not Kubernetes: a bug's message surfacing as an answer. */
const LEAKS: Array<[RegExp, string]> = [
  [/\[object Object\]/, '[object Object]'],
  [/(?:^|[\s:"(=])undefined(?:$|[\s,")])(?! behavior)/, 'undefined'],
  [/(?:^|[\s:"(=])NaN(?:$|[\s,")])/, 'NaN'],
  [/\b(?:TypeError|ReferenceError|RangeError|SyntaxError: Unexpected)\b/, 'a JavaScript error'],
  [/Cannot read propert|Cannot set propert|is not a function|is not iterable|is not defined|Maximum call stack|Invalid array length|Invalid string length|Cannot convert (?:undefined|null|a BigInt|object)/, 'a JavaScript error'],
  [/function \w*\(\) \{|\[native code\]/, 'a function'],
  [/\bline -?0*[0-9]*:|line -\d/, 'a negative or zero line'],
];

/** Upstream's own texts that would look like leaks: Go's json.Marshal of a YAML .nan, CRD rules. */
const UPSTREAM = /json: unsupported value: (?:NaN|[+-]Inf)|must be true or undefined|may result in undefined behavior/g;

function shapeProblem(message: string | undefined): string | undefined {
  if (message === undefined || message.trim() === '') return 'an empty message';
  message = message.replace(UPSTREAM, '');
  for (const [re, what] of LEAKS) {
    if (!re.test(message)) continue;
    if (what === 'a negative or zero line' && !/line (-\d|0:)/.test(message)) continue;
    return `${what}: ${message.slice(0, 300)}`;
  }
  return undefined;
}

const CLUSTER_MUTANTS = 100;
const VALIDATOR_MUTANTS = 250;

let validator: Validator | undefined;
let validatorUses = 0;
let cluster: Cluster | undefined;
let clusterUses = 0;
let lsp: LspClient | undefined;

const count = (v: Record<string, number>, k: string, n = 1) => (v[k] = (v[k] ?? 0) + n);

async function runValidate(m: Mutant, problems: string[]): Promise<TargetOutcome> {
  const t0 = performance.now();
  const verdicts: Record<string, number> = {};
  if (!validator || validatorUses++ >= VALIDATOR_MUTANTS) {
    await validator?.server.close();
    validator = new Validator(await createValidationCluster('fuzz'), false);
    validatorUses = 1;
  }
  // Alternate plain and --strict, as users run it.
  const v = m.id % 2 === 0 ? validator : new Validator(validator.server, true);
  let reports: DocumentReport[] = [];
  try {
    reports = await v.validateFile(`fuzz-${m.id}.${m.seedFile.endsWith('.json') ? 'json' : 'yaml'}`, m.text);
  } catch (err) {
    problems.push(`validate threw: ${err instanceof Error ? err.stack : String(err)}`);
  }
  for (const r of reports) {
    count(verdicts, r.valid ? 'valid' : 'invalid');
    if (!r.valid && r.errors.length === 0) problems.push(`validate: document ${r.index} invalid with no error`);
    for (const e of r.errors) {
      const p = shapeProblem(e.message);
      if (p) problems.push(`validate: ${p}`);
      if (!Number.isInteger(e.line) || e.line < 1 || !Number.isInteger(e.column) || e.column < 1) problems.push(`validate: error at line ${e.line} column ${e.column}`);
    }
    for (const w of r.warnings) {
      const p = shapeProblem(w.message);
      if (p) problems.push(`validate warning: ${p}`);
    }
  }
  if (reports.length === 0) count(verdicts, 'no documents');
  return { ms: performance.now() - t0, verdicts };
}

async function runApply(m: Mutant, problems: string[]): Promise<TargetOutcome> {
  const t0 = performance.now();
  const verdicts: Record<string, number> = {};
  if (!cluster || clusterUses++ >= CLUSTER_MUTANTS) {
    await cluster?.close();
    cluster = await createCluster({ seed: 'fuzz', nodes: { count: 1 } });
    clusterUses = 1;
  }
  let results: ApplyResult[] = [];
  try {
    results = await applyManifestText(cluster.client(), `fuzz-${m.id}.yaml`, m.text);
    // What the control plane does with it: controllers, the scheduler, the kubelet.
    await cluster.advance(2000);
  } catch (err) {
    problems.push(`apply threw: ${err instanceof Error ? err.stack : String(err)}`);
    // A cluster whose clock failed is not used again.
    await cluster.close().catch(() => undefined);
    cluster = undefined;
  }
  for (const r of results) {
    count(verdicts, r.action);
    const p = shapeProblem(r.message);
    if (p) problems.push(`apply: ${p}`);
    if (r.status?.code === 500 && shapeProblem(r.status.message ?? '')) problems.push(`apply: 500 ${r.status.message}`);
  }
  if (results.length === 0) count(verdicts, 'no objects');
  return { ms: performance.now() - t0, verdicts };
}

async function runLsp(m: Mutant, problems: string[]): Promise<TargetOutcome> {
  const t0 = performance.now();
  const verdicts: Record<string, number> = {};
  if (!lsp || !lsp.running) {
    if (lsp) problems.push('lsp: the language server had exited');
    lsp = await LspClient.start({ command: process.execPath, args: [join(__dirname, '../../dist/server.mjs'), '--stdio'], rootUri: 'file:///fuzz' });
  }
  const uri = `file:///fuzz/m${m.id}.yaml`;
  try {
    const { diagnostics } = await lsp.open(uri, m.text, 30_000);
    count(verdicts, diagnostics.length === 0 ? 'clean' : 'with diagnostics');
    count(verdicts, 'diagnostics', diagnostics.length);
    for (const d of diagnostics) {
      const p = shapeProblem(d.message);
      if (p) problems.push(`lsp: ${p}`);
      const { start, end } = d.range;
      if (start.line < 0 || start.character < 0 || end.line < start.line || (end.line === start.line && end.character < start.character)) problems.push(`lsp: range ${JSON.stringify(d.range)}`);
    }
    const lines = m.text.split(/\r\n|\r|\n/);
    const position = { line: Math.min(lines.length - 1, 2), character: 2 };
    await lsp.request('textDocument/hover', { textDocument: { uri }, position });
    const range = diagnostics[0]?.range ?? { start: position, end: position };
    await lsp.request('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: diagnostics.slice(0, 3) } });
  } catch (err) {
    problems.push(`lsp: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await lsp.close(uri).catch(() => undefined);
  }
  return { ms: performance.now() - t0, verdicts };
}

async function run(m: Mutant): Promise<MutantResult> {
  const problems: string[] = [];
  const validate = await runValidate(m, problems);
  const apply = await runApply(m, problems);
  const lspOutcome = await runLsp(m, problems);
  return { id: m.id, validate, apply, lsp: lspOutcome, problems };
}

const send = (msg: FromWorker) => process.send!(msg);

process.on('uncaughtException', (err) => {
  process.stderr.write(`fuzz worker: uncaught ${err.stack ?? String(err)}\n`);
  process.exit(70);
});
process.on('unhandledRejection', (err) => {
  process.stderr.write(`fuzz worker: unhandled rejection ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(70);
});

let queue = Promise.resolve();
process.on('message', (msg: ToWorker) => {
  if (msg.type !== 'run') return;
  queue = queue.then(async () => {
    send({ type: 'result', result: await run(msg.mutant) });
  });
});
process.on('disconnect', () => {
  void Promise.resolve(lsp?.stop()).finally(() => process.exit(0));
});
send({ type: 'ready' });
