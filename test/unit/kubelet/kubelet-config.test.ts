import { strict as assert } from 'node:assert';
import { kubeletHarness } from './harness';
import { CONFIGMAPS, SECRETS } from '../../../src/engine/client/resources';
import type { Pod } from '../../../src/engine/kubelet/api';

const waiting = (p: Pod) => p.status?.containerStatuses?.[0]?.state?.waiting;

describe('kubelet: ConfigMaps and Secrets the pod needs', () => {
  it('fails to create a container whose environment reads a missing ConfigMap, and starts it once it exists', async () => {
    const h = await kubeletHarness();
    const env = [
      { name: 'LOG_LEVEL', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'log.level' } } },
      { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'app-token', key: 'token', optional: true } } },
    ];
    await h.createPod({ metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', env } as never] } });
    await h.cluster.settle();
    assert.deepEqual(waiting(await h.getPod('web')), { reason: 'CreateContainerConfigError', message: 'configmap "app-config" not found' });
    const events = await h.events('default', (e) => e.involvedObject.kind === 'Pod');
    assert.ok(events.includes('Warning Failed Error: configmap "app-config" not found'), events.join('\n'));

    const configMaps = h.cluster.client().resource(CONFIGMAPS, 'default');
    await configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'default' }, data: { other: 'x' } });
    // The next try comes with the pod worker's 10 s retry; its status with the next relist.
    await h.cluster.advance(11_000);
    assert.deepEqual(waiting(await h.getPod('web')), { reason: 'CreateContainerConfigError', message: "couldn't find key log.level in ConfigMap default/app-config" });

    const cm = await configMaps.get('app-config');
    await configMaps.update({ ...cm, data: { 'log.level': 'debug' } });
    await h.cluster.advance(11_000);
    const pod = await h.getPod('web');
    assert.equal(pod.status?.phase, 'Running', 'the optional secret may be missing');
    await h.close();
  });

  it('waits in ContainerCreating while a volume cannot be set up, with FailedMount events', async () => {
    const h = await kubeletHarness();
    const volumes = [{ name: 'creds', secret: { secretName: 'db-pass' } }, { name: 'extra', configMap: { name: 'nope', optional: true } }];
    await h.createPod({ metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], volumes } as never });
    await h.cluster.advance(130_000);
    const pod = await h.getPod('web');
    assert.deepEqual(waiting(pod), { reason: 'ContainerCreating' });
    assert.equal(pod.status?.conditions?.find((c) => c.type === 'PodReadyToStartContainers')?.status, 'False');
    assert.equal(pod.status?.podIP, undefined);
    const events = await h.rawEvents();
    const setUp = events.find((e) => e.message.startsWith('MountVolume.SetUp failed'))!;
    assert.equal(setUp.message, 'MountVolume.SetUp failed for volume "creds" : secret "db-pass" not found');
    assert.deepEqual([setUp.type, setUp.reason, setUp.involvedObject.fieldPath], ['Warning', 'FailedMount', undefined]);
    assert.ok(setUp.count > 5, `retried with back-off (${setUp.count})`);
    assert.ok(events.some((e) => e.message === 'Unable to attach or mount volumes: unmounted volumes=[creds], unattached volumes=[], failed to process volumes=[]: context deadline exceeded'));

    await h.cluster.client().resource(SECRETS, 'default').create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-pass', namespace: 'default' }, data: { password: 'cGFzcw==' } });
    // The SetUp retries have backed off to 2m2s by now.
    await h.cluster.advance(125_000);
    assert.equal((await h.getPod('web')).status?.phase, 'Running');
    await h.close();
  });
});
