import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { loadSeeds } from '../../fuzz/corpus';
import { mutants, OPERATOR_NAMES } from '../../fuzz/mutate';

describe('fuzz: the mutants', () => {
  const seeds = loadSeeds();
  const digest = (seed: string) => {
    const h = createHash('sha256');
    for (const m of mutants(seeds, 120, seed)) h.update(`${m.id} ${m.operators.join('+')} ${m.text}\n`);
    return h.digest('hex');
  };

  it('are the same for the same seed and differ for another', () => {
    assert.equal(digest('a'), digest('a'));
    assert.notEqual(digest('a'), digest('b'));
  });

  it('use every operator, and change the text', () => {
    const used = new Set<string>();
    let changed = 0;
    for (const m of mutants(seeds, 200, 'kubesim-fuzz')) {
      m.operators.forEach((o) => used.add(o));
      if (m.text !== seeds[m.id % seeds.length]!.text) changed++;
    }
    assert.deepEqual([...used].sort(), [...OPERATOR_NAMES].sort());
    assert.ok(changed > 190, `${changed} of 200 changed`);
  });
});
