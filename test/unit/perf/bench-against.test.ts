/** The bench runner's --against options: what is taken out, what reaches the suite, what is refused. */
import { strict as assert } from 'node:assert';
import { againstOptions } from '../../../bench/against';
import { median } from '../../../bench/report';

describe('bench --against', () => {
  it('is absent unless asked for', () => {
    assert.equal(againstOptions(['--json', '--quick']), undefined);
  });
  it('takes --against and --rounds out and leaves the suite its own options', () => {
    assert.deepEqual(againstOptions(['--quick', '--against', 'HEAD~1', '--rounds', '3', '--json']), { ref: 'HEAD~1', rounds: 3, json: true, rest: ['--quick', '--json'] });
    assert.deepEqual(againstOptions(['--against', 'abc123']), { ref: 'abc123', rounds: 1, json: false, rest: [] });
  });
  it('refuses a missing commit and a bad round count', () => {
    assert.deepEqual(againstOptions(['--against']), { error: 'error: --against needs a commit (e.g. --against HEAD~1)' });
    assert.deepEqual(againstOptions(['--against', '--json']), { error: 'error: --against needs a commit (e.g. --against HEAD~1)' });
    for (const n of ['0', '21', '1.5', 'x']) assert.deepEqual(againstOptions(['--against', 'HEAD', '--rounds', n]), { error: 'error: --rounds must be an integer from 1 to 20' });
  });
  it('medians', () => {
    assert.ok(Number.isNaN(median([])));
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
  });
});
