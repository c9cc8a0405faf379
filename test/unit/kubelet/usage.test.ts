import { strict as assert } from 'node:assert';
import { podBehavior } from '../../../src/engine/kubelet/behavior';
import type { Pod } from '../../../src/engine/kubelet/api';
import { curveAt, curveIntegral, firstCrossing, idleUsage, parseCurve, type Curve } from '../../../src/engine/kubelet/usage';

const curve = (text: string, resource: 'cpu' | 'memory' = 'cpu'): Curve => {
  const c = parseCurve('cpu', text, resource);
  if (!c.ok) throw new Error(c.error);
  return c.value;
};

function pod(annotation: string, limits?: Record<string, string>): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', annotations: { 'kubesim.dev/behavior': annotation } },
    spec: { containers: [{ name: 'web', image: 'nginx:1.27', ...(limits ? { resources: { limits } } : {}) }, { name: 'sidecar', image: 'busybox:1.36' }] },
  };
}

describe('kubelet/usage (cpu, memory and cpu-load levels)', () => {
  it('reads a level as a constant or as value@time points joined by ">"', () => {
    assert.deepEqual(curve('250m').points, [{ atMs: 0, value: 250_000_000 }]);
    assert.deepEqual(curve('1.5').points, [{ atMs: 0, value: 1_500_000_000 }]);
    assert.deepEqual(curve('100m>900m@2m>900m@5m>100m@5m').points, [
      { atMs: 0, value: 100_000_000 },
      { atMs: 120_000, value: 900_000_000 },
      { atMs: 300_000, value: 900_000_000 },
      { atMs: 300_000, value: 100_000_000 },
    ]);
    assert.deepEqual(curve('64Mi>128Mi@30s', 'memory').points, [
      { atMs: 0, value: 64 * 1024 * 1024 },
      { atMs: 30_000, value: 128 * 1024 * 1024 },
    ]);
    assert.deepEqual(curve('200m@1m').points, [{ atMs: 60_000, value: 200_000_000 }]);
  });

  it('reports malformed levels in the words of the quantity and duration parsers', () => {
    const cases: [string, string][] = [
      ['abc', `cpu: "abc": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`],
      ['1ki', `cpu: "1ki": unable to parse quantity's suffix`],
      ['-1', 'cpu: "-1" must not be negative'],
      ['100m>900m', 'cpu: point "900m" needs a time (value@time, as in 900m@2m)'],
      ['100m>900m@2', 'cpu: time: missing unit in duration "2"'],
      ['100m>900m@2m>1@1m', 'cpu: point "1@1m" comes before the point ahead of it'],
      ['100m>>1@1m', 'cpu: "100m>>1@1m" has an empty point (points are value@time joined by ">")'],
    ];
    for (const [text, error] of cases) assert.deepEqual(parseCurve('cpu', text, 'cpu'), { ok: false, error }, text);
  });

  it('holds the first and last values, interpolates between points, and integrates exactly', () => {
    const ramp = curve('100m>900m@2m');
    assert.equal(curveAt(ramp, -5), 100_000_000);
    assert.equal(curveAt(ramp, 60_000), 500_000_000);
    assert.equal(curveAt(ramp, 600_000), 900_000_000);
    // 0..2m: mean 500m over 120 s; 2m..3m: 900m over 60 s (nanocores * ms).
    assert.equal(curveIntegral(ramp, 0, 180_000), 500_000_000 * 120_000 + 900_000_000 * 60_000);
    const step = curve('100m>100m@1m>900m@1m');
    assert.equal(curveIntegral(step, 30_000, 90_000), 100_000_000 * 30_000 + 900_000_000 * 30_000);
    assert.equal(curveIntegral(step, 90_000, 90_000), 0);
  });

  it('finds when a memory level passes a limit', () => {
    const mb = 1024 * 1024;
    assert.equal(firstCrossing(curve('64Mi>256Mi@4m', 'memory'), 128 * mb), 80_000);
    assert.equal(firstCrossing(curve('64Mi', 'memory'), 128 * mb), undefined);
    assert.equal(firstCrossing(curve('200Mi', 'memory'), 128 * mb), 0);
    assert.equal(firstCrossing(curve('64Mi>64Mi@1m>200Mi@1m', 'memory'), 128 * mb), 60_000);
  });

  it('gives idle containers a small footprint that depends on the image only', () => {
    const nginx = idleUsage('nginx:1.27');
    assert.deepEqual(idleUsage('nginx:1.27'), nginx);
    assert.ok(nginx.cpu >= 1_000_000 && nginx.cpu <= 3_000_000, String(nginx.cpu));
    assert.ok(nginx.memory >= 3 * 1024 * 1024 && nginx.memory < 13 * 1024 * 1024, String(nginx.memory));
  });

  it('reads the cpu, memory and cpu-load terms of the behavior annotation, per container', () => {
    const b = podBehavior(pod('cpu=300m memory=64Mi; sidecar: cpu=5m; web: cpu-load=2>500m@5m'));
    assert.equal(b.error, undefined);
    const web = b.containers.get('web')!.usage!;
    assert.equal(web.cpu?.text, '300m');
    assert.equal(web.memory?.text, '64Mi');
    assert.equal(web.cpuLoad?.text, '2>500m@5m');
    assert.deepEqual(b.containers.get('sidecar')!.usage!.cpu?.points, [{ atMs: 0, value: 5_000_000 }]);
    assert.equal(b.containers.get('sidecar')!.usage!.memory?.text, '64Mi', 'the unprefixed clause applies to every regular container');
    assert.equal(podBehavior(pod('cpu')).error, 'cpu needs a value (a quantity such as 250m, or a curve such as 100m>900m@2m)');
    assert.equal(podBehavior(pod('memory=')).error, 'memory needs a value (a quantity such as 64Mi, or a curve such as 64Mi>256Mi@5m)');
    assert.equal(podBehavior(pod('cpu-load=lots')).error, `cpu-load: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  });

  it('OOM-kills a container when its memory level passes its memory limit', () => {
    const b = podBehavior(pod('memory=64Mi>256Mi@4m', { memory: '128Mi' }));
    assert.deepEqual(b.containers.get('web')!.exit, { kind: 'oom', code: 137, afterMs: 80_000 });
    assert.equal(b.containers.get('sidecar')!.exit, undefined, 'no limit, no OOM kill');
    const earlier = podBehavior(pod('memory=64Mi>256Mi@4m crash-after=10s', { memory: '128Mi' }));
    assert.deepEqual(earlier.containers.get('web')!.exit, { kind: 'exit', code: 1, afterMs: 10_000 }, 'an earlier exit comes first');
  });
});
