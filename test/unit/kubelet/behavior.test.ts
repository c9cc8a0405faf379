import { strict as assert } from 'node:assert';
import { podBehavior, type ContainerBehavior } from '../../../src/engine/kubelet/behavior';
import type { Pod } from '../../../src/engine/kubelet/api';

function pod(annotation: string | undefined, restartPolicy = 'Always'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', ...(annotation !== undefined ? { annotations: { 'kubesim.dev/behavior': annotation } } : {}) },
    spec: {
      restartPolicy,
      initContainers: [{ name: 'setup' }, { name: 'proxy', restartPolicy: 'Always' }],
      containers: [{ name: 'web' }, { name: 'log-shipper' }],
    },
  };
}

const forever: ContainerBehavior = { startDelayMs: 0, probeDelayMs: 0, ignoreSigterm: false, shutdownDelayMs: 0 };

describe('kubelet/behavior (kubesim.dev/behavior)', () => {
  it('defaults: servers run until stopped, init containers and batch containers complete', () => {
    const b = podBehavior(pod(undefined));
    assert.equal(b.error, undefined);
    assert.deepEqual(b.containers.get('web'), forever);
    assert.deepEqual(b.containers.get('proxy'), forever);
    assert.deepEqual(b.containers.get('setup')?.exit, { kind: 'exit', code: 0, afterMs: 1000 });
    assert.deepEqual(podBehavior(pod(undefined, 'Never')).containers.get('web')?.exit, { kind: 'exit', code: 0, afterMs: 5000 });
    assert.deepEqual(podBehavior(pod(undefined, 'OnFailure')).containers.get('log-shipper')?.exit, { kind: 'exit', code: 0, afterMs: 5000 });
  });

  it('applies unprefixed clauses to the regular containers only, prefixed ones to their container', () => {
    const b = podBehavior(pod('crash-after=30s; log-shipper: exit=0 after=5s, shutdown-delay=2s; setup: exit=3\nproxy: ignore-sigterm'));
    assert.equal(b.error, undefined);
    assert.deepEqual(b.containers.get('web')?.exit, { kind: 'exit', code: 1, afterMs: 30_000 });
    assert.deepEqual(b.containers.get('log-shipper')?.exit, { kind: 'exit', code: 0, afterMs: 5000 });
    assert.equal(b.containers.get('log-shipper')?.shutdownDelayMs, 2000);
    assert.deepEqual(b.containers.get('setup')?.exit, { kind: 'exit', code: 3, afterMs: 0 });
    assert.equal(b.containers.get('proxy')?.ignoreSigterm, true);
    assert.equal(b.containers.get('proxy')?.exit, undefined);
  });

  it('reads every term', () => {
    const b = podBehavior(pod('oom-after=20s start-delay=10s fail-readiness-after=1m fail-liveness-after=90s probe-delay=2s ignore-sigterm shutdown-delay=500ms'));
    assert.deepEqual(b.containers.get('web'), {
      exit: { kind: 'oom', code: 137, afterMs: 20_000 },
      startDelayMs: 10_000,
      failReadinessAfterMs: 60_000,
      failLivenessAfterMs: 90_000,
      probeDelayMs: 2000,
      ignoreSigterm: true,
      shutdownDelayMs: 500,
    });
    const flags = podBehavior(pod('fail-readiness fail-liveness')).containers.get('web');
    assert.equal(flags?.failReadinessAfterMs, 0);
    assert.equal(flags?.failLivenessAfterMs, 0);
  });

  it('reports malformed annotations and keeps the defaults', () => {
    const cases: [string, string][] = [
      ['crsh-after=30s', 'unknown term "crsh-after" (known: after, cpu, cpu-load, crash-after, exit, fail-liveness, fail-liveness-after, fail-readiness, fail-readiness-after, ignore-sigterm, memory, oom-after, probe-delay, shutdown-delay, start-delay)'],
      ['crash-after=30', 'crash-after: time: missing unit in duration "30"'],
      ['crash-after', 'crash-after needs a value (a duration such as 30s)'],
      ['exit', 'exit needs a value (an exit code)'],
      ['exit=256', 'exit: "256" is not an exit code (0-255)'],
      ['after=5s', 'after needs exit in the same clause (exit=0 after=5s)'],
      ['crash-after=5s oom-after=5s', 'crash-after and oom-after both say when the container exits'],
      ['ignore-sigterm=yes', 'ignore-sigterm takes no value'],
      ['db: crash-after=5s', 'no container named "db" in the pod (containers: setup, proxy, web, log-shipper)'],
      ['web:', 'empty clause "web:"'],
      [' ; ', 'the annotation is empty'],
    ];
    for (const [text, error] of cases) {
      const b = podBehavior(pod(text));
      assert.equal(b.error, error, text);
      assert.deepEqual(b.containers.get('web'), forever, text);
    }
  });
});
