import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { TraceBuffer } from '../../../src/engine/trace/buffer';
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';
import type { TraceDraft, TraceRecord } from '../../../src/engine/trace/types';

const draft = (name: string, cause?: number): TraceDraft<ApiRequestRecord> => ({
  type: 'api.request',
  component: 'kube-apiserver',
  cause,
  user: 'u',
  groups: [],
  verb: 'get',
  group: '',
  version: 'v1',
  resource: 'pods',
  name,
  dryRun: false,
  code: 200,
  stages: [],
});

describe('trace buffer', () => {
  it('stamps ids and virtual time, keeps the newest records and notifies subscribers', async () => {
    const clock = new Clock();
    const buffer = new TraceBuffer({ clock, capacity: 3 });
    const seen: TraceRecord[] = [];
    const unsubscribe = buffer.subscribe((r) => seen.push(r));
    const first = buffer.emit(draft('a'));
    await clock.advance(1500);
    for (const n of ['b', 'c', 'd']) buffer.emit(draft(n, first.id));
    assert.equal(first.id, 1);
    assert.equal(first.time, clock.now() - 1500);
    assert.equal(buffer.size, 3);
    assert.deepEqual(buffer.records().map((r) => r.id), [2, 3, 4]);
    assert.equal(buffer.get(1), undefined, 'the oldest record fell off');
    assert.equal(buffer.get(4)?.cause, 1);
    assert.ok(Object.isFrozen(buffer.get(4)));
    unsubscribe();
    buffer.emit(draft('e'));
    assert.equal(seen.length, 4);
  });
});
