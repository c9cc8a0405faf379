import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { parseImageRef, type ImageRef } from '../../../src/engine/kubelet/image-ref';
import { ImageService, PAUSE_IMAGE, type PullResult } from '../../../src/engine/kubelet/images';
import { TimerGroup } from '../../../src/engine/kubelet/timers';

function ref(image: string): ImageRef {
  const r = parseImageRef(image);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe('kubelet/images', () => {
  it('normalizes references as containerd reports them', () => {
    assert.equal(ref('nginx:1.27').tagged, 'docker.io/library/nginx:1.27');
    assert.equal(ref('nginx').tagged, 'docker.io/library/nginx:latest');
    assert.equal(ref('bitnami/redis:7').tagged, 'docker.io/bitnami/redis:7');
    assert.equal(ref('registry.k8s.io/pause:3.10.1').tagged, 'registry.k8s.io/pause:3.10.1');
    assert.equal(ref('localhost:5000/app').tagged, 'localhost:5000/app:latest');
    const d = 'sha256:' + 'a'.repeat(64);
    assert.equal(ref(`nginx@${d}`).tagged, `docker.io/library/nginx@${d}`);
    assert.equal(ref(`nginx@${d}`).digested, `docker.io/library/nginx@${d}`);
    assert.match(ref('nginx:1.27').digested, /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    assert.equal(ref('nginx:1.27').digested, ref('docker.io/library/nginx:1.27').digested, 'same image, same digest');
    assert.equal(ref('nginx:1.27').sizeBytes, ref('nginx:1.28').sizeBytes);
  });

  it("refuses references that parsers.ParseImageName refuses", () => {
    assert.deepEqual(parseImageRef('Nginx'), { ok: false, error: 'couldn\'t parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase' });
    assert.deepEqual(parseImageRef('nginx:bad tag'), { ok: false, error: 'couldn\'t parse image name "nginx:bad tag": invalid reference format' });
    assert.deepEqual(parseImageRef('nginx@sha256:123'), { ok: false, error: 'couldn\'t parse image name "nginx@sha256:123": invalid reference format' });
  });

  async function pulls(settings: ConstructorParameters<typeof ImageService>[0], images: string[]) {
    const clock = new Clock(0);
    const service = new ImageService(settings, new TimerGroup(clock, 'test'), () => clock.now());
    const results: (PullResult & { at: number })[] = [];
    for (const image of images) service.pull(image, ref(image), (r) => results.push({ ...r, at: clock.now() }));
    await clock.settle();
    return { service, results };
  }

  it('pulls one image at a time; a queued pull reports the time including waiting', async () => {
    const { service, results } = await pulls({ pullDurations: { 'nginx:1.27': 1200, 'docker.io/library/redis:7': 800 } }, ['nginx:1.27', 'redis:7', 'nginx:1.27']);
    assert.deepEqual(
      results.map((r) => [r.ref.tagged, r.ok, r.pullMs, r.totalMs, r.at]),
      [
        ['docker.io/library/nginx:1.27', true, 1200, 1200, 1200],
        ['docker.io/library/redis:7', true, 800, 2000, 2000],
        ['docker.io/library/nginx:1.27', true, 1200, 3200, 3200],
      ],
    );
    assert.ok(service.get(ref('nginx:1.27')));
    assert.deepEqual(
      service.nodeImages().map((i) => i.names[1]),
      ['docker.io/library/nginx:1.27', 'docker.io/library/redis:7', PAUSE_IMAGE],
    );
  });

  it('pulls in parallel when serializePulls is false; derives the default duration from the size', async () => {
    const { results } = await pulls({ serializePulls: false }, ['nginx:1.27', 'busybox:1.36']);
    assert.deepEqual(results.map((r) => [r.ref.repository, r.pullMs, r.totalMs]), [
      ['docker.io/library/busybox', 586, 586],
      ['docker.io/library/nginx', 3384, 3384],
    ]);
  });

  it("fails missing images with containerd's NotFound, and example.invalid images with a DNS error", async () => {
    const { results, service } = await pulls({ missing: ['nginx:nope'] }, ['nginx:nope', 'example.invalid/shop/cart:1.0']);
    assert.equal(results[0]!.ok, false);
    assert.equal(results[0]!.pullMs, 1000);
    assert.equal(
      results[0]!.error,
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:nope": failed to resolve reference "docker.io/library/nginx:nope": docker.io/library/nginx:nope: not found',
    );
    assert.equal(
      results[1]!.error,
      'rpc error: code = Unknown desc = failed to pull and unpack image "example.invalid/shop/cart:1.0": failed to resolve reference "example.invalid/shop/cart:1.0": failed to do request: Head "https://example.invalid/v2/shop/cart/manifests/1.0": dial tcp: lookup example.invalid: no such host',
    );
    assert.equal(service.get(ref('nginx:nope')), undefined);
  });

  it('has the pause image and preloaded images from the start', () => {
    const clock = new Clock(0);
    const service = new ImageService({ preloaded: ['busybox:1.36'] }, new TimerGroup(clock, 'test'), () => clock.now());
    assert.ok(service.get(ref('busybox:1.36')));
    assert.ok(service.get(ref(PAUSE_IMAGE)));
    assert.equal(service.nodeImages().length, 2);
  });
});
