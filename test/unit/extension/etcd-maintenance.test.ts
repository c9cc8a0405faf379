import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import type { WallClock } from '../../../src/engine/pacer';
import { Random } from '../../../src/engine/random';
import { createSimulatedEtcd } from '../../../src/engine/store/etcdserver';
import { StoreErrors } from '../../../src/engine/store/types';
import { ClusterHost } from '../../../src/extension/cluster-host';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../../../src/extension/settings';
import { alarmMessage, memberItem } from '../../../src/extension/tree/etcd-items';
import { ALARM_TEXT, raisedAlarms } from '../../../src/protocol/etcd';
import { parseWebviewMessage } from '../../../src/protocol/panel';
import { parseToEngine } from '../../../src/protocol/engine';

const still: WallClock = { now: () => 0, after: () => () => undefined };
const settings: KubeSimSettings = { ...DEFAULT_SETTINGS, nodes: { ...DEFAULT_SETTINGS.nodes, count: 1 }, etcd: { ...DEFAULT_SETTINGS.etcd, latency: 'instant' } };

describe('etcd maintenance from the sidebar and the etcd view: Compact, Defragment, Disarm, and NOSPACE shown', function () {
  this.timeout(120_000);

  it('NOSPACE shows on the member that raised it and as the view’s message, in etcd’s words', async () => {
    const clock = new Clock(0);
    const client = createSimulatedEtcd(clock, { members: 3, random: new Random('etcd-maintenance-nospace'), quotaBackendBytes: 256 * 1024 });
    const value = 'x'.repeat(20_000);
    for (let i = 0; i < 100; i++) {
      try {
        await clock.until(client.put({ key: `/registry/configmaps/default/c${i}`, value }));
      } catch {
        break;
      }
      await clock.advance(150);
    }
    await clock.advance(100);
    const status = client.cluster.status();
    const raiser = status.find((m) => m.alarms.includes('NOSPACE'));
    assert.ok(raiser, 'a member raised NOSPACE');
    assert.equal(ALARM_TEXT.NOSPACE, StoreErrors.noSpace, 'the text a client gets for a refused write');
    const item = memberItem(raiser);
    assert.match(item.description, /NOSPACE/);
    assert.match(item.contextValue, /^etcdMember:running.*:nospace/);
    assert.match(item.tooltip, /alarm NOSPACE: etcdserver: mvcc: database space exceeded/);
    assert.equal(item.icon, 'warning');
    const quiet = status.find((m) => m.alarms.length === 0)!;
    assert.doesNotMatch(memberItem(quiet).description, /NOSPACE/);
    const msg = alarmMessage(status)!;
    assert.ok(msg, 'the view says so');
    assert.equal(msg.message, `Alarm NOSPACE (${raiser.name}): etcdserver: mvcc: database space exceeded. Writes fail until you Compact, Defragment each member, then Disarm Alarms.`);
    assert.equal(msg.badge.value, 1);
    assert.deepEqual(raisedAlarms(status), [{ alarm: 'NOSPACE', text: StoreErrors.noSpace, members: [raiser.name] }]);
    await client.close();
    assert.equal(alarmMessage(client.cluster.status().map((m) => ({ ...m, alarms: [] }))), undefined, 'no alarm, no message');
  });

  it('Compact, Defragment and Disarm answer with etcdctl’s lines and do what they say', async () => {
    const host = await ClusterHost.start({ settings, mirror: () => undefined, onError: (err) => assert.fail(String(err)), wall: still });
    try {
      const before = host.etcdMembers()!;
      const leader = before.find((m) => m.role === 'leader')!;
      const compact = await host.etcdAction('compact', leader.name);
      assert.ok(compact.ok, JSON.stringify(compact));
      const [line] = compact.lines;
      const rev = Number(/^compacted revision (\d+)$/.exec(line!)?.[1]);
      assert.ok(rev >= leader.revision, line);
      await host.cluster.advance(10);
      assert.ok(host.etcdMembers()!.every((m) => m.compactRevision === rev), 'every member applied the compaction');
      const defrag = await host.etcdAction('defragment', 'etcd-1');
      assert.ok(defrag.ok);
      const sizes = /^Finished defragmenting etcd member\[etcd-1\] \(db size (\d+) bytes before, (\d+) after\)$/.exec(defrag.lines[0]!);
      assert.ok(sizes, defrag.lines[0]);
      // The numbers are the member's dbSize (etcdctl endpoint status) before and after.
      assert.equal(Number(sizes[2]), host.etcdMembers()!.find((m) => m.name === 'etcd-1')!.dbSizeBytes);
      assert.deepEqual(await host.etcdAction('disarm', leader.name), { ok: true, lines: ['no alarm was raised: nothing to disarm'] });
      const bad = await host.etcdAction('defragment', 'etcd-9');
      assert.equal(bad.ok, false);
    } finally {
      await host.dispose();
    }
  });

  it('the view and the worker take the maintenance actions, and nothing else', () => {
    for (const action of ['compact', 'defragment', 'disarm']) {
      assert.equal(parseWebviewMessage({ type: 'etcdAction', action, member: 'etcd-0' }).ok, true, action);
      assert.equal(parseToEngine({ type: 'call', id: 1, method: 'etcdAction', params: { action, member: 'etcd-0' } }).ok, true, action);
    }
    assert.equal(parseWebviewMessage({ type: 'etcdAction', action: 'snapshot', member: 'etcd-0' }).ok, false);
    assert.equal(parseToEngine({ type: 'call', id: 1, method: 'etcdAction', params: { action: 'rm', member: 'etcd-0' } }).ok, false);
  });
});
