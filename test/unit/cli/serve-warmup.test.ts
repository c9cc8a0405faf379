/**
 * `kubesim serve` runs SERVE_WARMUP_MS of virtual time before it tells kubectl where to connect,
 * so that the metrics API is already in discovery (`kubectl api-versions` lists metrics.k8s.io,
 * `kubectl top` answers) as it is on a cluster whose metrics-server has been up for a while. With
 * the latency model the APIService turned Available at about 19 s while serve started 15 s early,
 * and the kubectl suite's api-versions case failed whenever start-up took under 4 s.
 */
import { strict as assert } from 'node:assert';
import { createCluster } from '../../../src/engine/cluster';
import { metricsApiAvailable, SERVE_WARMUP_MS } from '../../../src/cli/serve';

describe('kubesim serve: the warm-up before it listens', () => {
  for (const [what, etcd] of [
    ['the default etcd (3 members, the latency model)', {}],
    ['5 members', { members: 5 }],
    ['an instant etcd', { latency: 'instant' as const }],
  ] as const) {
    it(`leaves the metrics API available with ${what}`, async function () {
      this.timeout(60_000);
      const cluster = await createCluster({ seed: 'kubesim', startTime: Date.UTC(2026, 0, 1), nodes: { count: 3 }, metricsServer: true, etcd });
      try {
        await cluster.advance(10_000);
        assert.equal(metricsApiAvailable(cluster), false, 'not before metrics-server has scraped twice');
        await cluster.advance(SERVE_WARMUP_MS - 10_000);
        assert.equal(metricsApiAvailable(cluster), true);
      } finally {
        await cluster.close();
      }
    });
  }
});
