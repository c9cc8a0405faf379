/** bench cluster --repeat: which mode runs first in each round, and the medians over the rounds. */
import { strict as assert } from 'node:assert';
import { freshRunArgs, parseEtcdModes, parseRepeat, roundOrder, summarizeRounds, type ModeRound } from '../../../bench/etcd-modes';

const round = (wall: Record<string, number>, cpu: Record<string, number>): ModeRound => ({ wall: new Map(Object.entries(wall)), cpu: new Map(Object.entries(cpu)) });

describe('bench cluster --repeat', () => {
  it('alternates which mode runs first, starting with the order given', () => {
    const modes = ['3/model', '1/instant'];
    assert.deepEqual([0, 1, 2, 3].map((r) => roundOrder(modes, r)[0]), ['3/model', '1/instant', '3/model', '1/instant']);
    assert.deepEqual(roundOrder(modes, 1), ['1/instant', '3/model']);
    assert.deepEqual(modes, ['3/model', '1/instant'], 'the given list is not reversed in place');
  });
  it('takes the median of the rounds ratios, first mode over second, whichever ran first', () => {
    const modes = parseEtcdModes('cluster', '3/model,1/instant');
    const sum = summarizeRounds(modes, [
      round({ '3/model': 110, '1/instant': 100 }, { '3/model': 60, '1/instant': 50 }),
      round({ '1/instant': 200, '3/model': 180 }, { '1/instant': 100, '3/model': 90 }),
      round({ '3/model': 130, '1/instant': 100 }, { '3/model': 50, '1/instant': 50 }),
    ]);
    assert.deepEqual(sum.ratios, [1.1, 0.9, 1.3]);
    assert.deepEqual(sum.cpuRatios, [1.2, 0.9, 1]);
    assert.equal(sum.medianRatio, 1.1);
    assert.equal(sum.medianCpuRatio, 1);
    assert.deepEqual(sum.modes, [
      { text: '3/model', medianWallMs: 130, medianCpuMs: 60 },
      { text: '1/instant', medianWallMs: 100, medianCpuMs: 50 },
    ]);
  });
  it('an even round count takes the mean of the two middle ratios', () => {
    const modes = parseEtcdModes('cluster', '3/model,1/instant');
    const sum = summarizeRounds(modes, [round({ '3/model': 12, '1/instant': 10 }, { '3/model': 1, '1/instant': 1 }), round({ '3/model': 10, '1/instant': 10 }, { '3/model': 1, '1/instant': 1 })]);
    assert.equal(sum.medianRatio, 1.1);
  });
  it('has no ratio for other than two modes', () => {
    const modes = parseEtcdModes('cluster', '3/model,5/model,1/instant');
    const sum = summarizeRounds(modes, [round({ '3/model': 1, '5/model': 2, '1/instant': 3 }, { '3/model': 1, '5/model': 2, '1/instant': 3 })]);
    assert.deepEqual(sum.ratios, []);
    assert.ok(Number.isNaN(sum.medianRatio));
    assert.equal(sum.modes[1]!.medianWallMs, 2);
  });
  it('refuses a round without a time for a mode, and a bad --repeat', () => {
    const modes = parseEtcdModes('cluster', '3/model,1/instant');
    assert.throws(() => summarizeRounds(modes, [round({ '3/model': 1 }, { '3/model': 1 })]), /round without a time for 1\/instant/);
    assert.equal(parseRepeat('cluster', undefined), 1);
    assert.equal(parseRepeat('cluster', '5'), 5);
    for (const t of ['0', '51', '1.5', 'x', '']) assert.throws(() => parseRepeat('cluster', t), /--repeat/);
  });
  it('starts each fresh run as one store, in process, with the sizes resolved', () => {
    const [model, instant] = parseEtcdModes('cluster', '3/model,1/instant');
    const run = { nodes: 100, deployments: 30, replicas: 100, detail: 'summary', counts: false };
    assert.deepEqual(freshRunArgs(model!, run), ['cluster', '--only', 'deployments', '--in-process', '--etcd', '3/model', '--nodes', '100', '--deployments', '30', '--replicas', '100', '--detail', 'summary', '--json']);
    const counted = freshRunArgs(instant!, { ...run, counts: true });
    assert.equal(counted[counted.indexOf('--etcd') + 1], '1/instant');
    assert.ok(counted.includes('--counts'));
    assert.ok(!counted.includes('--repeat'), 'a fresh run is one run: the rounds are the parent\'s');
  });
});
