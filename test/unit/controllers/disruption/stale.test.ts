/** TestStalePodDisruption: when a DisruptionTarget condition is stale and what clearing it writes. */
import { strict as assert } from 'node:assert';
import { clearedDisruptionTarget, staleDisruptionWaitMs } from '../../../../src/engine/controllers/disruption/stale';
import type { Pod, PodCondition } from '../../../../src/engine/controllers/disruption/types';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

function pod(conditions: PodCondition[] | undefined, extra: { deleting?: boolean; phase?: string } = {}): Pod {
  const p: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', namespace: 'default' }, status: { conditions } };
  if (extra.deleting) p.metadata.deletionTimestamp = iso(T0);
  if (extra.phase) p.status!.phase = extra.phase;
  return p;
}

const target = (status: string, reason?: string): PodCondition => ({ type: 'DisruptionTarget', status, lastTransitionTime: iso(T0), ...(reason ? { reason } : {}) });

/** The controller's decision after `passedMs`: the conditions it writes, or undefined for none. */
function decide(p: Pod, passedMs: number): PodCondition[] | undefined {
  const now = T0 + passedMs;
  const wait = staleDisruptionWaitMs(p, now);
  if (wait === undefined || wait > 0) return undefined;
  return clearedDisruptionTarget(p, iso(now));
}

describe('controllers/disruption stale DisruptionTarget', () => {
  const cases: { name: string; pod: Pod; passedMs: number; want: PodCondition[] | undefined }[] = [
    { name: 'stale pod disruption', pod: pod([target('True', 'EvictionByEvictionAPI')]), passedMs: 121_000, want: [{ type: 'DisruptionTarget', status: 'False', lastProbeTime: null, lastTransitionTime: iso(T0 + 121_000) }] },
    { name: 'pod disruption in progress', pod: pod([target('True')]), passedMs: 119_000, want: undefined },
    { name: 'pod disruption actuated', pod: pod([target('True')], { deleting: true }), passedMs: 121_000, want: undefined },
    { name: 'no pod disruption', pod: pod(undefined, { deleting: true }), passedMs: 121_000, want: undefined },
    { name: 'pod disruption cleared', pod: pod([target('False')], { deleting: true }), passedMs: 121_000, want: undefined },
    { name: 'set by the kubelet', pod: pod([target('True', 'TerminationByKubelet')]), passedMs: 121_000, want: undefined },
    { name: 'pod already finished', pod: pod([target('True')], { phase: 'Failed' }), passedMs: 121_000, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(decide(c.pod, c.passedMs), c.want);
    });
  }

  it('waits out the rest of the 2 minutes', () => {
    assert.equal(staleDisruptionWaitMs(pod([target('True')]), T0 + 30_000), 90_000);
    assert.equal(staleDisruptionWaitMs(pod([target('True')]), T0 + 120_000), 0);
  });
});
