import * as assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { connect, createServer } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parse } from 'yaml';
import type { EndpointInfo } from '../../src/extension/endpoint/controller';
import type { KubeSimApi } from '../../src/extension/main';
import type { ApiRequestRecord } from '../../src/engine/trace/apiserver';
import { EXTENSION_ID } from './support';

interface Kubeconfig {
  'current-context': string;
  clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { token: string } }[];
}

function api(): KubeSimApi {
  const ext = vscode.extensions.getExtension<KubeSimApi>(EXTENSION_ID);
  assert.ok(ext?.isActive, 'the extension is active');
  return ext.exports;
}

function readKubeconfig(file: string): { config: Kubeconfig; ca: string; token: string } {
  const config = parse(readFileSync(file, 'utf8')) as Kubeconfig;
  const ca = Buffer.from(config.clusters[0]!.cluster['certificate-authority-data'], 'base64').toString('utf8');
  return { config, ca, token: config.users[0]!.user.token };
}

function get(url: string, ca: string, token?: string): Promise<{ status: number; type: string; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
  });
}

/** kubectl: $KUBECTL, the Cloud SDK's, or the one on PATH. */
function findKubectl(): string | undefined {
  for (const c of [process.env.KUBECTL, '/usr/lib/google-cloud-sdk/bin/kubectl']) if (c && existsSync(c)) return c;
  const which = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

async function until<T>(value: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = value();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const config = () => vscode.workspace.getConfiguration('kubesim');

suite('kubesim API endpoint for kubectl', () => {
  let info: EndpointInfo;

  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('kubesim.stopApiEndpoint');
    await config().update('apiEndpoint.port', undefined, vscode.ConfigurationTarget.Global);
  });

  test('Start API Endpoint: HTTPS on 127.0.0.1, a 0600 kubeconfig, token required', async () => {
    const a = api();
    const started = await vscode.commands.executeCommand<EndpointInfo | undefined>('kubesim.startApiEndpoint');
    assert.ok(started, 'the command returns where it serves');
    info = started;
    assert.match(info.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(info.url, `https://127.0.0.1:${info.port}`);
    assert.deepEqual(a.apiEndpoint.current, info);
    assert.equal(path.basename(info.kubeconfig), `kubesim-${info.port}.kubeconfig`);
    assert.match(info.kubeconfig, /globalStorage/);
    assert.equal(statSync(info.kubeconfig).mode & 0o777, 0o600);
    const { config: kubeconfig, ca, token } = readKubeconfig(info.kubeconfig);
    assert.equal(kubeconfig['current-context'], 'kubesim');
    assert.equal(kubeconfig.clusters[0]!.cluster.server, info.url);

    const ns = await get(`${info.url}/api/v1/namespaces/default`, ca, token);
    assert.equal(ns.status, 200);
    assert.match(ns.type, /^application\/json/);
    assert.equal(ns.body.kind, 'Namespace');
    assert.equal((ns.body.metadata as { name: string }).name, 'default');
    const anonymous = await get(`${info.url}/api/v1/namespaces/default`, ca);
    assert.deepEqual(anonymous.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    assert.equal(anonymous.status, 401);

    assert.ok(a.output.text.includes(`# API endpoint at ${info.url} (127.0.0.1 only); kubeconfig ${info.kubeconfig}, current context kubesim\nexport KUBECONFIG=`), a.output.text.slice(-500));
    await a.statusBar.render();
    assert.match(String(a.statusBar.item.tooltip), new RegExp(`\\nAPI endpoint: ${info.url.replace(/\./g, '\\.')}\\nIn a terminal: export KUBECONFIG=`));
  });

  test('Start API Endpoint again shows where it runs instead of starting twice', async () => {
    const a = api();
    const before = a.output.text.split('# API endpoint at').length;
    const again = await vscode.commands.executeCommand<EndpointInfo | undefined>('kubesim.startApiEndpoint');
    assert.deepEqual(again, info);
    assert.equal(a.output.text.split('# API endpoint at').length, before, 'no second start');
  });

  test('Switch User: the kubeconfig gets a context for the new user, whom RBAC answers', async () => {
    const a = api();
    await config().update('user', 'jane:dev', vscode.ConfigurationTarget.Global);
    const after = await until(() => (a.apiEndpoint.current && a.apiEndpoint.current !== info ? a.apiEndpoint.current : undefined), 'the endpoint with the new user');
    assert.deepEqual(after.contexts, ['kubesim', 'kubesim-jane']);
    assert.equal(after.port, info.port);
    assert.equal(after.kubeconfig, info.kubeconfig);
    const { config: kubeconfig, ca } = readKubeconfig(after.kubeconfig);
    const jane = kubeconfig.users.find((u) => u.name === 'jane')?.user.token;
    assert.ok(jane);
    const res = await get(`${after.url}/api/v1/namespaces/default`, ca, jane);
    assert.equal(res.status, 403);
    assert.equal(res.body.message, 'namespaces "default" is forbidden: User "jane" cannot get resource "namespaces" in API group "" at the cluster scope');
    // The lines follow the restart (the endpoint is current a moment before they are written).
    await until(() => (/# the user changed; the kubeconfig has its context: API endpoint at .*\n.*\nkubectl get nodes\nkubectl --context kubesim-jane auth whoami\n/.test(a.output.text) ? true : undefined), 'the restart in the output');
    await config().update('user', undefined, vscode.ConfigurationTarget.Global);
    info = await until(() => (a.apiEndpoint.current && a.apiEndpoint.current !== after ? a.apiEndpoint.current : undefined), 'the endpoint with the admin alone');
    assert.deepEqual(info.contexts, ['kubesim']);
  });

  test('real kubectl sees the simulated nodes, and its requests reach the panel', async function () {
    this.timeout(120_000);
    const kubectl = findKubectl();
    if (!kubectl) {
      if (process.env.CI === 'true') assert.fail('kubectl not found (set KUBECTL)');
      this.skip();
    }
    const a = api();
    const out = await new Promise<string>((resolve, reject) =>
      execFile(kubectl, ['get', 'nodes'], { env: { ...process.env, KUBECONFIG: info.kubeconfig }, timeout: 60_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
    );
    const lines = out.trimEnd().split('\n');
    assert.match(lines[0]!, /^NAME +STATUS +ROLES +AGE +VERSION$/);
    assert.deepEqual(lines.slice(1).map((l) => l.split(/ +/)[0]), [...a.session.current!.nodeNames()].sort());
    assert.match(lines[1]!, /^kubesim-control-plane +Ready +control-plane +\S+ +v1\.35\.0$/);
    const listed = (await a.session.current!.traceRecords()).filter((r): r is ApiRequestRecord => r.type === 'api.request' && (r as ApiRequestRecord).resource === 'nodes' && (r as ApiRequestRecord).verb === 'list');
    assert.ok(listed.some((r) => r.user === 'kubernetes-admin' && r.code === 200), 'kubectl get nodes is an API request in the trace');
  });

  test('Reset Cluster: the endpoint serves the new cluster on the same port; the kubeconfig gets its tokens', async () => {
    const a = api();
    const old = readKubeconfig(info.kubeconfig);
    await a.session.reset();
    const after = await until(() => (a.apiEndpoint.current && a.apiEndpoint.current !== info ? a.apiEndpoint.current : undefined), 'the endpoint on the new cluster');
    assert.equal(after.port, info.port);
    assert.equal(after.kubeconfig, info.kubeconfig);
    const fresh = readKubeconfig(after.kubeconfig);
    assert.equal(fresh.ca, old.ca, 'the same certificate');
    assert.notEqual(fresh.token, old.token);
    assert.equal((await get(`${after.url}/api/v1/namespaces/default`, fresh.ca, fresh.token)).status, 200);
    assert.equal((await get(`${after.url}/api/v1/namespaces/default`, fresh.ca, old.token)).status, 401, "the old cluster's token is not known");
    assert.match(a.output.text, /# the cluster was replaced; the kubeconfig holds its new tokens: API endpoint at /);
    info = after;
  });

  test('Stop API Endpoint closes the port and removes the kubeconfig', async () => {
    const a = api();
    await vscode.commands.executeCommand('kubesim.stopApiEndpoint');
    assert.equal(a.apiEndpoint.current, undefined);
    assert.equal(await connectError(info.port), 'ECONNREFUSED');
    assert.equal(existsSync(info.kubeconfig), false);
    assert.ok(a.output.text.includes(`# API endpoint at ${info.url} stopped; its tokens are revoked`));
    await a.statusBar.render();
    assert.doesNotMatch(String(a.statusBar.item.tooltip), /API endpoint/);
  });

  test('a port in use is reported readably, and nothing starts', async () => {
    const a = api();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    const port = (taken.address() as { port: number }).port;
    try {
      await config().update('apiEndpoint.port', port, vscode.ConfigurationTarget.Global);
      await until(() => (a.settings().apiEndpoint.port === port ? true : undefined), 'the setting');
      const started = await vscode.commands.executeCommand<EndpointInfo | undefined>('kubesim.startApiEndpoint');
      assert.equal(started, undefined);
      assert.equal(a.apiEndpoint.current, undefined);
      assert.ok(a.output.text.includes(`# KubeSim: cannot start the API endpoint: 127.0.0.1:${port} is already in use (EADDRINUSE); set kubesim.apiEndpoint.port to another port, or to 0 for a free one.`));
    } finally {
      taken.close();
      await config().update('apiEndpoint.port', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
