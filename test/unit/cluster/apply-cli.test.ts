/**
 * `kubesim apply`: the bundled example settles with every pod Running and Ready and the
 * endpoints filled; the timeline has a line for every kind of record; the same seed gives the
 * same output byte for byte, in-process and through the bundled CLI; one apply can be followed
 * through the records' causes down to the EndpointSlice that routes to its pods.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { applyFiles } from '../../../src/cli/apply';
import { runApplyCaptured as run } from '../cli/run-apply';
import { createCluster } from '../../../src/engine/cluster';
import type { TraceRecord } from '../../../src/engine/trace/types';
import type { KubeObject } from '../../../src/engine/api/types';

const EXAMPLE = 'examples/web.yaml';

interface PodLike extends KubeObject {
  spec: { nodeName?: string };
  status: { phase?: string; podIP?: string; conditions?: { type: string; status: string }[] };
}

describe('kubesim apply', () => {
  it('settles the example: pods Running and Ready on the workers, the EndpointSlice filled (json)', async () => {
    const { code, stdout } = await run(['-f', EXAMPLE, '--output', 'json']);
    assert.equal(code, 0);
    const out = JSON.parse(stdout) as { settled: boolean; records: TraceRecord[]; objects: KubeObject[] };
    assert.equal(out.settled, true);
    const pods = out.objects.filter((o) => o.kind === 'Pod') as PodLike[];
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.equal(p.status.phase, 'Running');
      assert.equal(p.status.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
      assert.match(p.spec.nodeName ?? '', /^kubesim-worker\d?$/);
    }
    const slice = out.objects.find((o) => o.kind === 'EndpointSlice' && o.metadata.labels?.['kubernetes.io/service-name'] === 'web') as KubeObject & { endpoints: { addresses: string[]; conditions: { ready: boolean } }[] };
    assert.deepEqual(slice.endpoints.map((e) => e.addresses[0]).sort(), pods.map((p) => p.status.podIP).sort());
    assert.ok(slice.endpoints.every((e) => e.conditions.ready));
    const kinds = new Set(out.records.map((r) => r.type));
    assert.deepEqual([...kinds].sort(), ['api.request', 'controller.reconcile', 'kube.event', 'kubelet.action', 'scheduler.attempt', 'scheduler.binding', 'store.revision']);
  });

  it('prints a line for every kind of record, then kubectl get tables', async () => {
    const { code, stdout } = await run(['-f', EXAMPLE]);
    assert.equal(code, 0);
    const lines = stdout.split('\n');
    assert.deepEqual(lines.slice(0, 2), ['deployment.apps/web created', 'service/web created']);
    const has = (re: RegExp) => assert.ok(lines.some((l) => re.test(l)), `no line matches ${re}`);
    // The first write pays its way (the latency model: API server, replication, WAL fsyncs).
    has(/^ +\+0\.003s  rev \d+ +admin +patch deployments\.apps default\/web$/);
    has(/deployment-controller +reconcile default\/web \(rev \d+\): 0 replica sets; create web-\w+ \(3\)/);
    has(/replicaset-controller +create pods default\/web-\w+-\w+$/);
    has(/kube-scheduler +schedule pod default\/web-\w+-\w+ -> kubesim-worker\d? \(3 of 4 nodes fit; top scores: /);
    has(/kube-scheduler +bound pod default\/web-\w+-\w+ to kubesim-worker/);
    has(/kubelet\/kubesim-worker\d? +image-pulled default\/web-\w+-\w+ nginx: nginx:1\.27 in \d+ms/);
    has(/deployment-controller +event Normal ScalingReplicaSet Deployment default\/web: Scaled up replica set web-\w+ from 0 to 3$/);
    has(/default-scheduler +event Normal Scheduled Pod default\/web-\w+-\w+: Successfully assigned default\/web-\w+-\w+ to kubesim-worker/);
    has(/endpointslice-controller +update endpointslices\.discovery\.k8s\.io default\/web-\w+: .*endpoints: \[\d items?\] → \[3 items\]/);
    has(/^NAME +READY +UP-TO-DATE +AVAILABLE +AGE$/);
    // The cluster's bootstrap takes 0.92 s of virtual time, so the objects are stamped 00:00:00 and the run ends at 00:00:06.4.
    has(/^deployment\.apps\/web +3\/3 +3 +3 +6s$/);
    has(/^pod\/web-\w+-\w+ +1\/1 +Running +0 +6s +10\.244\.\d+\.2 +kubesim-worker\d? +<none> +<none>$/);
    has(/^endpointslice\.discovery\.k8s\.io\/web-\w+ +IPv4 +80 +10\.244\.\d+\.2,10\.244\.\d+\.2,10\.244\.\d+\.2 +6s$/);
    assert.ok(!lines.some((l) => / leases /.test(l)), 'lease renewals are left out');
  });

  it('gives the same output for the same seed, byte for byte, in-process and through the bundled CLI', async function () {
    this.timeout(60_000);
    const first = await run(['-f', EXAMPLE, '--seed', 'same']);
    const second = await run(['-f', EXAMPLE, '--seed', 'same']);
    assert.equal(second.stdout, first.stdout);
    const other = await run(['-f', EXAMPLE, '--seed', 'other']);
    assert.notEqual(other.stdout, first.stdout);
    // Inside the repository: the bundle finds the vendored schemas above its own path.
    mkdirSync('dist', { recursive: true });
    const dir = mkdtempSync(join('dist', 'test-cli-'));
    try {
      const outfile = join(dir, 'cli.js');
      await build({ entryPoints: ['src/cli/main.ts'], bundle: true, platform: 'node', format: 'cjs', outfile, external: ['vscode', 'etcd3'], logLevel: 'warning' });
      const bundled = execFileSync(process.execPath, [outfile, 'apply', '-f', EXAMPLE, '--seed', 'same'], { encoding: 'utf8' });
      assert.equal(bundled, first.stdout);
      const json1 = await run(['-f', EXAMPLE, '--seed', 'same', '-o', 'json']);
      const json2 = execFileSync(process.execPath, [outfile, 'apply', '-f', EXAMPLE, '--seed', 'same', '-o', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
      assert.equal(json2, json1.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs for a duration with --until and reports usage errors', async () => {
    const { stdout } = await run(['-f', EXAMPLE, '--until', '2s', '--nodes', '1']);
    assert.match(stdout, /pod\/web-\w+-\w+ +0\/1 +ContainerCreating +0 +2s/);
    assert.equal((await run(['-f', EXAMPLE, '--until', 'soon'])).code, 2);
    assert.match((await run(['-f', EXAMPLE, '-o', 'yaml'])).stderr, /unable to match a printer suitable for the output format "yaml", allowed formats are: json,timeline/);
  });

  it('follows one apply through the causes down to the EndpointSlice update', async () => {
    const cluster = await createCluster({ seed: 'chain' });
    try {
      const first = cluster.trace.next;
      await applyFiles(cluster, [EXAMPLE]);
      await cluster.settle();
      const records = cluster.trace.since(first);
      const sliceUpdate = [...records].reverse().find((r) => r.type === 'api.request' && r.resource === 'endpointslices' && r.verb === 'update')!;
      const chain: TraceRecord[] = [];
      for (let r: TraceRecord | undefined = sliceUpdate; r; r = r.cause !== undefined ? cluster.trace.get(r.cause) : undefined) chain.unshift(r);
      const steps = chain.map((r) => {
        switch (r.type) {
          case 'api.request':
            return `request ${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''}`;
          case 'store.revision':
            return `revision ${r.operation} ${r.resource}`;
          case 'controller.reconcile':
            return `reconcile ${r.controller}`;
          case 'scheduler.attempt':
            return `schedule ${r.outcome}`;
          case 'kubelet.action':
            return `kubelet ${r.action}`;
          default:
            return r.type;
        }
      });
      // Collapse the kubelet's steps between admission and the status patch.
      const kubeletSteps = steps.filter((s) => s.startsWith('kubelet'));
      assert.deepEqual(kubeletSteps.slice(0, 2), ['kubelet pod-admitted', 'kubelet sandbox-created']);
      assert.deepEqual(
        steps.filter((s) => !s.startsWith('kubelet')),
        [
          'request patch deployments',
          'revision create deployments',
          'reconcile deployment',
          'request create replicasets',
          'revision create replicasets',
          'reconcile replicaset',
          'request create pods',
          'revision create pods',
          'schedule scheduled',
          'request create pods/binding',
          'revision update pods',
          'request patch pods/status',
          'revision update pods',
          'reconcile endpointslice',
          'request update endpointslices',
        ],
      );
    } finally {
      await cluster.close();
    }
  });
});
