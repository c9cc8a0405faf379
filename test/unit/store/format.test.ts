import { strict as assert } from 'node:assert';
import { formatRevisionLog } from '../../../src/engine/store';

describe('store formatRevisionLog', () => {
  it('writes one line per event, and one for progress or cancellation', () => {
    const kv = { key: '/registry/pods/default/web', value: '{"a":"é"}', createRevision: 5, modRevision: 7, version: 2, lease: 0 };
    assert.deepEqual(
      formatRevisionLog({
        header: { revision: 8 },
        events: [
          { type: 'PUT', kv },
          { type: 'DELETE', kv: { key: kv.key, value: '', createRevision: 0, modRevision: 8, version: 0, lease: 0 } },
        ],
      }),
      ['rev 7  PUT     /registry/pods/default/web  (created at 5, version 2, 10 B)', 'rev 8  DELETE  /registry/pods/default/web'],
    );
    assert.deepEqual(formatRevisionLog({ header: { revision: 9 }, events: [], progressNotify: true }), ['rev 9  (progress)']);
    assert.deepEqual(formatRevisionLog({ header: { revision: 0 }, events: [], canceled: true, compactRevision: 6 }), [
      'watch canceled: etcdserver: mvcc: required revision has been compacted (compacted at 6)',
    ]);
  });
});
