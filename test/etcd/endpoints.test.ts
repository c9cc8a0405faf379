/**
 * `--etcd-endpoints`: kubesim apply and kubesim serve storing the cluster in a real 3-member
 * etcd 3.4 on loopback instead of the simulated members. The same manifests give the same
 * cluster (objects, placements, addresses, readiness, virtual time to settle); only what depends
 * on the order in which real etcd delivers concurrent answers may differ: revision numbers and
 * the random suffixes of generated names.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireEtcd, startEtcdCluster, type EtcdCluster } from '../support/etcd';
import { CLI, ensureBuilt, etcdctl, etcdctlMissingReason, kubesim, run } from './cli';

interface ApplyJson {
  results: { action: string; message: string }[];
  settled: boolean;
  elapsedMs: number;
  objects: KubeObject[];
}

interface KubeObject {
  kind: string;
  metadata: { name: string; namespace?: string; generateName?: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  endpoints?: { addresses: string[] }[];
}

/** What must be the same on both backends, one line per object, generated suffixes as "*". */
function essentials(objects: readonly KubeObject[]): string[] {
  return objects
    .map((o) => {
      const m = o.metadata;
      const name = m.generateName ? `${m.generateName}*` : m.name.replace(/-[a-z0-9]{5}$/, '-*');
      const s = o.status ?? {};
      const detail =
        o.kind === 'Pod'
          ? `node=${String(o.spec?.nodeName)} ip=${String(s.podIP)} phase=${String(s.phase)}`
          : o.kind === 'Deployment' || o.kind === 'ReplicaSet'
            ? `ready=${String(s.readyReplicas)}`
            : o.kind === 'Service'
              ? `clusterIP=${String(o.spec?.clusterIP)}`
              : o.kind === 'EndpointSlice'
                ? `addresses=${(o.endpoints ?? []).flatMap((e) => e.addresses).sort().join(',')}`
                : '';
      return `${o.kind} ${m.namespace ?? ''}/${name} ${detail}`;
    })
    .sort();
}

function findKubectl(): string | undefined {
  for (const c of [process.env.KUBECTL, '/usr/lib/google-cloud-sdk/bin/kubectl.1.32']) if (c) return c;
  return undefined;
}

describe('--etcd-endpoints: the cluster in a real 3-member etcd', function () {
  this.timeout(180_000);
  let etcd: EtcdCluster;
  let endpoints: string;

  before(async function () {
    requireEtcd(this);
    const reason = etcdctlMissingReason();
    if (reason) {
      if (process.env.CI === 'true') throw new Error(`etcd tests cannot run in CI: ${reason}`);
      this.skip();
    }
    ensureBuilt();
    etcd = await startEtcdCluster({ members: 3 });
    endpoints = etcd.endpoints.join(',');
  });

  after(async () => {
    await etcd?.stop();
  });

  let onEtcd: ApplyJson;

  it('kubesim apply gives the cluster the simulated etcd gives', async () => {
    // A real etcd's requests take no virtual time (the virtual clock waits for them): the
    // simulated etcd it is compared with runs without the latency model too.
    const [simulated, real] = await Promise.all([
      kubesim(['apply', '-f', 'examples/web.yaml', '-o', 'json', '--etcd-latency', 'instant']),
      kubesim(['apply', '-f', 'examples/web.yaml', '-o', 'json', '--etcd-endpoints', endpoints]),
    ]);
    assert.equal(real.stderr, '');
    assert.equal(real.code, 0);
    assert.equal(simulated.code, 0);
    const a = JSON.parse(simulated.stdout) as ApplyJson;
    onEtcd = JSON.parse(real.stdout) as ApplyJson;
    assert.deepEqual(onEtcd.results.map((r) => r.message), ['deployment.apps/web created', 'service/web created']);
    assert.deepEqual(onEtcd.results.map((r) => r.action), a.results.map((r) => r.action));
    assert.equal(onEtcd.settled, true);
    assert.equal(onEtcd.elapsedMs, a.elapsedMs);
    assert.deepEqual(essentials(onEtcd.objects), essentials(a.objects));
    assert.equal(essentials(onEtcd.objects).filter((l) => / phase=Running$/.test(l)).length, 3);
  });

  it('etcd holds what kubectl sees: /registry keys with kubesim\'s JSON values', async () => {
    const pods = await etcdctl(['--endpoints', endpoints, 'get', '--prefix', '--keys-only', '/registry/pods/']);
    assert.equal(pods.code, 0, pods.stderr);
    const names = onEtcd.objects.filter((o) => o.kind === 'Pod').map((o) => `/registry/pods/default/${o.metadata.name}`).sort();
    assert.deepEqual(pods.stdout.split('\n').filter(Boolean), names);
    const web = await etcdctl(['--endpoints', endpoints, 'get', '--print-value-only', '/registry/deployments/default/web']);
    const stored = JSON.parse(web.stdout) as KubeObject;
    assert.equal(stored.kind, 'Deployment');
    assert.equal(stored.status?.readyReplicas, 3);
  });

  it('a second run starts from what etcd holds, as kube-apiserver would', async () => {
    const status = await etcdctl(['--endpoints', etcd.endpoints[0]!, 'get', '--prefix', '--keys-only', '/registry/', '-w', 'json']);
    const { count, header } = JSON.parse(status.stdout) as { count: number; header: { revision: number } };
    const again = await kubesim(['apply', '-f', 'examples/web.yaml', '--etcd-endpoints', endpoints]);
    assert.equal(again.code, 0);
    assert.equal(
      again.stderr,
      `kubesim: etcd at ${endpoints} already holds ${count} keys under /registry/ (revision ${header.revision}); the cluster starts from them, as kube-apiserver would\n`,
    );
    assert.match(again.stdout, /^deployment\.apps\/web unchanged\nservice\/web unchanged\n/);
    assert.match(again.stdout, /deployment\.apps\/web {3}3\/3 /);
  });

  it('kubesim serve: kubectl reads the cluster that etcd holds', async function () {
    const kubectl = findKubectl();
    if (!kubectl) {
      if (process.env.CI === 'true') throw new Error('kubectl is missing');
      this.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-etcd-serve-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--kubeconfig', kubeconfig, '--no-metrics-server', '--etcd-endpoints', endpoints], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`kubesim serve did not start:\n${out}`)), 60_000);
        const onData = (d: Buffer): void => {
          out += d.toString();
          if (out.includes('export KUBECONFIG=')) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.on('exit', (code) => reject(new Error(`kubesim serve exited (${String(code)}):\n${out}`)));
      });
      assert.match(out, /already holds \d+ keys under \/registry\//);
      const env = { ...process.env, KUBECONFIG: kubeconfig };
      const get = await run(kubectl!, ['get', 'deployment', 'web', '-o', 'jsonpath={.status.readyReplicas}'], { env });
      assert.equal(get.stderr, '');
      assert.equal(get.stdout, '3');
      const create = await run(kubectl!, ['create', 'configmap', 'written-through-kubectl', '--from-literal=a=b'], { env });
      assert.equal(create.stdout, 'configmap/written-through-kubectl created\n');
      const stored = await etcdctl(['--endpoints', endpoints, 'get', '--print-value-only', '/registry/configmaps/default/written-through-kubectl']);
      assert.deepEqual((JSON.parse(stored.stdout) as { data: unknown }).data, { a: 'b' });
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('close', resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
