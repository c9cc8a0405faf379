import { strict as assert } from 'node:assert';
import { Random } from '../../../src/engine/random';
import { Cache } from '../../../src/engine/scheduler/cache/cache';
import { Snapshot } from '../../../src/engine/scheduler/cache/snapshot';
import { filterConstraints, countPodsMatchSelector, type SpreadConstraint } from '../../../src/engine/scheduler/plugins/pod-topology-spread/common';
import { DomainCounts } from '../../../src/engine/scheduler/plugins/pod-topology-spread/domain-counts';
import { makeNode, makePod } from './fake-host';

describe('PodTopologySpread: domain counts kept across cycles', () => {
  it('match a full recount after random pod and node changes', () => {
    const random = new Random('domains');
    const cache = new Cache();
    const snapshot = new Snapshot();
    const nodes = Array.from({ length: 12 }, (_, i) => makeNode(`n${i}`, { zone: `z${i % 4}` }));
    for (const n of nodes) cache.addNode(n);
    const c = (filterConstraints([{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }], {}, 'default', 'ScheduleAnyway') as { value: SpreadConstraint[] }).value[0]!;
    const domains = new DomainCounts();
    const live: string[] = [];
    for (let step = 0; step < 300; step++) {
      const r = random.int(10);
      if (r < 6 || live.length === 0) {
        const name = `p${step}`;
        const pod = makePod(name, { labels: { app: random.int(2) === 0 ? 'web' : 'db' }, nodeName: `n${random.int(12)}`, uid: name });
        cache.addPod(pod);
        live.push(name);
      } else if (r < 9) {
        const name = live.splice(random.int(live.length), 1)[0]!;
        cache.removePod(name);
      } else {
        const i = random.int(12);
        const relabelled = makeNode(`n${i}`, { zone: `z${random.int(5)}` });
        cache.updateNode(nodes[i]!, relabelled);
        nodes[i] = relabelled;
      }
      // Skip some cycles, as pods of other workloads would.
      cache.updateSnapshot(snapshot);
      if (random.int(3) === 0) continue;
      const want = new Map<string, number>();
      for (const n of snapshot.list) {
        const v = n.labels['topology.kubernetes.io/zone'] ?? '';
        want.set(v, (want.get(v) ?? 0) + countPodsMatchSelector(n, c.selector, 'default'));
      }
      const got = domains.totals(snapshot, c, 'default', '', () => true);
      assert.deepEqual(new Map([...got].sort()), new Map([...want].sort()), `step ${step}`);
    }
  });
});
