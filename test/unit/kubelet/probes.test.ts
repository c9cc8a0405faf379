import { strict as assert } from 'node:assert';
import { probeAnswer, ProbeState, probeTiming, type ProbeTarget } from '../../../src/engine/kubelet/probes';
import type { ContainerBehavior } from '../../../src/engine/kubelet/behavior';
import type { Probe } from '../../../src/engine/kubelet/api';

const healthy: ContainerBehavior = { startDelayMs: 0, probeDelayMs: 0, ignoreSigterm: false, shutdownDelayMs: 0 };
const target: ProbeTarget = { podIP: '10.244.1.5', sourceIP: '10.244.1.1', container: { name: 'web', ports: [{ name: 'http', containerPort: 8080 }] } };
const http: Probe = { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, timeoutSeconds: 1 };

describe('kubelet/probes', () => {
  it('answers HTTP probes as the application behaves, in the prober texts', () => {
    assert.deepEqual(probeAnswer('liveness', http, healthy, target, 0), { ok: true, output: '', log: '10.244.1.1 - "GET /healthz HTTP/1.1" 200 "kube-probe/1.35"' });
    const slowStart = { ...healthy, startDelayMs: 10_000 };
    assert.deepEqual(probeAnswer('readiness', http, slowStart, target, 9999), {
      ok: false,
      output: 'Get "http://10.244.1.5:8080/healthz": dial tcp 10.244.1.5:8080: connect: connection refused',
    });
    assert.equal(probeAnswer('readiness', http, slowStart, target, 10_000).ok, true);
    const failing = { ...healthy, failReadinessAfterMs: 60_000, failLivenessAfterMs: 90_000 };
    assert.equal(probeAnswer('readiness', http, failing, target, 59_999).ok, true);
    assert.equal(probeAnswer('readiness', http, failing, target, 60_000).output, 'HTTP probe failed with statuscode: 503');
    assert.equal(probeAnswer('liveness', http, failing, target, 60_000).ok, true);
    assert.equal(probeAnswer('liveness', http, failing, target, 90_000).output, 'HTTP probe failed with statuscode: 500');
    assert.equal(
      probeAnswer('readiness', http, { ...healthy, probeDelayMs: 1000 }, target, 0).output,
      'Get "http://10.244.1.5:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
    );
    assert.equal(probeAnswer('readiness', http, { ...healthy, probeDelayMs: 999 }, target, 0).ok, true);
  });

  it('answers TCP, exec and gRPC probes', () => {
    const tcp: Probe = { tcpSocket: { port: 5432 } };
    assert.deepEqual(probeAnswer('liveness', tcp, healthy, target, 0), { ok: true, output: '' });
    assert.equal(probeAnswer('liveness', tcp, { ...healthy, startDelayMs: 5000 }, target, 0).output, 'dial tcp 10.244.1.5:5432: connect: connection refused');
    const exec: Probe = { exec: { command: ['cat', '/tmp/healthy'] }, timeoutSeconds: 2 };
    assert.deepEqual(probeAnswer('liveness', exec, { ...healthy, failLivenessAfterMs: 0 }, target, 0), { ok: false, output: '' });
    assert.equal(probeAnswer('liveness', exec, { ...healthy, probeDelayMs: 2000 }, target, 0).output, 'command "cat /tmp/healthy" timed out');
    const grpc: Probe = { grpc: { port: 9090 } };
    assert.equal(probeAnswer('readiness', grpc, { ...healthy, failReadinessAfterMs: 0 }, target, 0).output, 'service unhealthy (responded with "NOT_SERVING")');
    assert.equal(probeAnswer('readiness', grpc, { ...healthy, startDelayMs: 1 }, target, 0).output, 'timeout: failed to connect service "10.244.1.5:9090" within 1s');
  });

  it('defaults the timing as the API server does', () => {
    assert.deepEqual(probeTiming({}), { initialDelayMs: 0, periodMs: 10_000, timeoutMs: 1000, successThreshold: 1, failureThreshold: 3 });
    assert.deepEqual(probeTiming({ initialDelaySeconds: 5, periodSeconds: 2, timeoutSeconds: 3, successThreshold: 2, failureThreshold: 1 }), {
      initialDelayMs: 5000, periodMs: 2000, timeoutMs: 3000, successThreshold: 2, failureThreshold: 1,
    });
  });

  it('changes a result only after the threshold of consecutive answers', () => {
    const readiness = new ProbeState('readiness', probeTiming({ successThreshold: 2, failureThreshold: 3 }));
    assert.equal(readiness.result, 'failure', 'readiness starts as failure');
    assert.equal(readiness.observe(true), false);
    assert.equal(readiness.observe(true), true);
    assert.equal(readiness.result, 'success');
    assert.deepEqual([false, false].map((a) => readiness.observe(a)), [false, false]);
    assert.equal(readiness.observe(true), false, 'a success breaks the run of failures');
    assert.deepEqual([false, false, false].map((a) => readiness.observe(a)), [false, false, true]);
    assert.equal(readiness.result, 'failure');
    assert.equal(readiness.onHold, false, 'readiness keeps probing');

    const liveness = new ProbeState('liveness', probeTiming({ failureThreshold: 2 }));
    assert.equal(liveness.result, 'success', 'liveness starts as success');
    assert.equal(liveness.wouldMatter(true), false);
    assert.equal(liveness.wouldMatter(false), true);
    liveness.observe(false);
    assert.equal(liveness.wouldMatter(true), true, 'a run in progress matters');
    liveness.observe(false);
    assert.equal(liveness.result, 'failure');
    assert.equal(liveness.onHold, true, 'a failed liveness probe holds until the container is replaced');

    assert.equal(new ProbeState('startup', probeTiming({})).result, 'unknown');
  });
});
