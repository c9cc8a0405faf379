import { strict as assert } from 'node:assert';
import { createCluster } from '../../../src/engine/cluster';
import { applyManifestText } from '../../../src/engine/kubectl/apply';
import { EVENTS, PODS } from '../../../src/engine/client/resources';
import type { KubeObject } from '../../../src/engine/api/types';

type PodObject = KubeObject & { spec: { nodeName?: string }; status?: { phase?: string; podIP?: string; conditions?: { type: string; status: string }[]; containerStatuses?: { state?: { waiting?: { reason?: string } } }[] } };

const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: many
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: many
  template:
    metadata:
      labels:
        app: many
    spec:
      containers:
      - name: app
        image: registry.k8s.io/pause:3.10
        resources:
          requests:
            cpu: 10m
`;

describe('kubelet: a node whose podCIDR has no address left', function () {
  this.timeout(120_000);

  it('keeps the extra pods ContainerCreating with FailedCreatePodSandBox, and starts them once addresses free up', async () => {
    // kubesim.nodes.pods 300 on a /24 podCIDR: host-local has 253 addresses (.2 to .254; .1 is the gateway).
    const cluster = await createCluster({ seed: 'kubesim', metricsServer: false, nodes: { count: 1, pods: 300, cpu: '64', memory: '256Gi' } });
    try {
      const admin = cluster.client();
      await applyManifestText(admin, 'many.yaml', deployment(258));
      // The 258 pods reach the node together (admission reads the watch cache, so creates are not
      // held up by live reads): every pod's sync finds pause:3.10 absent and queues a pull, and with
      // serializeImagePulls each queued pull of the image, present by then, costs its manifest check
      // (0.5 s): the last pods start about 130 s in.
      await cluster.advance(150_000);
      const list = async () => ((await admin.resource(PODS, 'default').list()).items as PodObject[]).filter((p) => p.metadata.name?.startsWith('many-'));
      const ready = (p: PodObject) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
      let pods = await list();
      assert.equal(pods.length, 258);
      const cidr = ((await admin.resource({ group: '', version: 'v1', resource: 'nodes' }).get('kubesim-worker')) as KubeObject & { spec: { podCIDR: string } }).spec.podCIDR;
      const prefix = cidr.replace(/\.0\/24$/, '.');
      const addressed = async () => ((await admin.resource(PODS).list()).items as PodObject[]).filter((p) => p.spec.nodeName === 'kubesim-worker' && p.status?.podIP?.startsWith(prefix)).length;
      assert.equal(await addressed(), 253, `every address of ${cidr} but the network, the gateway and broadcast`);
      const stuck = pods.filter((p) => !ready(p));
      assert.equal(stuck.length, 258 - pods.filter(ready).length);
      assert.ok(stuck.length >= 5, `${stuck.length} pods without an address`);
      for (const p of stuck) {
        assert.equal(p.status?.phase, 'Pending');
        assert.equal(p.status?.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');
      }
      const events = (await admin.resource(EVENTS, 'default').list()).items as (KubeObject & { reason?: string; type?: string; message?: string; involvedObject?: { name?: string } })[];
      const failed = events.filter((e) => e.reason === 'FailedCreatePodSandBox' && e.involvedObject?.name === stuck[0]!.metadata.name);
      assert.ok(failed.length >= 1);
      assert.equal(failed[0]!.type, 'Warning');
      assert.match(
        failed[0]!.message!,
        /^(\(combined from similar events\): )?Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "[0-9a-f]{64}": plugin type="bridge" name="kubesim" failed \(add\): failed to allocate for range 0: no IP addresses available in range set: (\d+\.\d+\.\d+\.)1-\2(?:254)$/,
      );
      // Scaled to the pods that run, the extra ones go (the ReplicaSet deletes pods not ready first);
      // a pod created now waits for an address, and gets one at its next attempt once two free up.
      const running = pods.filter(ready).length;
      const scale = (replicas: number) => admin.resource({ group: 'apps', version: 'v1', resource: 'deployments' }, 'default').patch('many', 'merge', { spec: { replicas } });
      await scale(running);
      await cluster.advance(30_000);
      assert.equal((await list()).filter((p) => !ready(p)).length, 0);
      await admin.resource(PODS, 'default').create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'late' }, spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] } });
      await cluster.advance(30_000);
      const late = () => admin.resource(PODS, 'default').get('late') as Promise<PodObject>;
      assert.equal((await late()).status?.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');
      await scale(running - 1);
      await cluster.advance(30_000);
      assert.equal(ready(await late()), true, 'the waiting pod got the freed address');
      assert.equal(await addressed(), 253);
    } finally {
      await cluster.close();
    }
  });
});
