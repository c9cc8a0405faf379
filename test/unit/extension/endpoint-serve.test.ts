import { strict as assert } from 'node:assert';
import { request } from 'node:https';
import { connect } from 'node:net';
import { parse } from 'yaml';
import * as HostModule from '../../../src/extension/cluster-host';
import { endpointUsers, type ClusterHost } from '../../../src/extension/cluster-host';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../../../src/extension/settings';
import type { WallClock } from '../../../src/engine/pacer';
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';

const still: WallClock = { now: () => 0, after: () => () => undefined };
// The wall clock stands still (the tests move virtual time themselves), so requests must take
// none: with the latency model they would wait for a Pacer that never plays.
const settings: KubeSimSettings = { ...DEFAULT_SETTINGS, nodes: { ...DEFAULT_SETTINGS.nodes, count: 1 }, etcd: { ...DEFAULT_SETTINGS.etcd, latency: 'instant' } };

interface Kubeconfig {
  'current-context': string;
  clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
  contexts: { name: string; context: { user: string } }[];
  users: { name: string; user: { token: string } }[];
}

function get(url: string, ca: string, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end();
  });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('extension cluster host: the API endpoint', function () {
  this.timeout(60_000);
  let host: ClusterHost;
  beforeEach(async () => {
    host = await HostModule.ClusterHost.start({ settings, mirror: () => undefined, onError: (err) => assert.fail(String(err)), wall: still });
  });
  afterEach(() => host.dispose());

  it('names the admin context first and the editor user second, as kubesim serve does', () => {
    assert.deepEqual(endpointUsers(DEFAULT_SETTINGS.user).map((u) => [u.context, u.user, u.info.username, u.info.groups]), [['kubesim', 'kubesim-admin', 'kubernetes-admin', ['system:masters', 'system:authenticated']]]);
    assert.deepEqual(endpointUsers({ username: 'jane', groups: ['dev', 'system:authenticated'] }).map((u) => [u.context, u.user, u.info.username, u.info.groups]), [
      ['kubesim', 'kubesim-admin', 'kubernetes-admin', ['system:masters', 'system:authenticated']],
      ['kubesim-jane', 'jane', 'jane', ['dev', 'system:authenticated']],
    ]);
  });

  it('serves the cluster with a token per context; requests go through its API server; closing revokes the tokens', async () => {
    host.user = { username: 'jane', groups: ['system:authenticated'] };
    const served = await host.serveApi(0);
    const config = parse(served.kubeconfig) as Kubeconfig;
    assert.equal(config['current-context'], 'kubesim');
    assert.deepEqual(served.contexts, ['kubesim', 'kubesim-jane']);
    assert.equal(config.clusters[0]!.cluster.server, `https://127.0.0.1:${served.port}`);
    const ca = Buffer.from(config.clusters[0]!.cluster['certificate-authority-data'], 'base64').toString('utf8');
    const [admin, jane] = config.users.map((u) => u.user.token) as [string, string];
    assert.match(admin, /^[A-Za-z0-9_-]{43}$/);

    const ok = await get(`${served.url}/api/v1/namespaces/default`, ca, admin);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.kind, 'Namespace');
    const forbidden = await get(`${served.url}/api/v1/nodes`, ca, jane);
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.message, 'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope');
    const anonymous = await get(`${served.url}/api/v1/namespaces/default`, ca);
    assert.deepEqual(anonymous, { status: 401, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 } });

    const requests = host.trace.records().filter((r): r is ApiRequestRecord => r.type === 'api.request' && (r as ApiRequestRecord).resource === 'namespaces');
    assert.deepEqual(requests.slice(-2).map((r) => [r.user, r.verb, r.name, r.code]), [['kubernetes-admin', 'get', 'default', 200], ['', 'get', 'default', 401]], 'the panel sees the HTTP requests');
    await served.close();
    assert.equal(await refused(served.port), true, 'the port is closed');
    assert.equal(host.cluster.server.tokens.authenticate(admin), undefined, 'the tokens are revoked');
  });

  it('serves again on the same port with the same certificate (a replaced cluster keeps the kubeconfig valid), and closes with the host', async () => {
    const first = await host.serveApi(0);
    await first.close();
    const second = await host.serveApi(first.port, first.tls);
    assert.equal(second.port, first.port);
    assert.equal(second.tls.cert, first.tls.cert);
    const config = parse(second.kubeconfig) as Kubeconfig;
    assert.equal((await get(`${second.url}/version`, second.tls.cert, config.users[0]!.user.token)).status, 200);
    await host.dispose();
    assert.equal(await refused(second.port), true, 'disposing the host closes its endpoint');
  });
});
