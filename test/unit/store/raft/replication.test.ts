/**
 * Log replication, commitment, flow control, snapshots and ReadIndex, ported from
 * etcd-io/raft's raft_test.go: each test names the upstream test it follows.
 */
import { strict as assert } from 'node:assert';
import { Raft, stepCandidate, stepLeader } from '../../../../src/engine/store/raft/raft';
import type { Message, NodeId, Snapshot, StateType } from '../../../../src/engine/store/raft/types';
import {
  BLACK_HOLE,
  Network,
  advanceMessagesAfterAppend,
  ent,
  entries,
  logOf,
  ltoa,
  msg,
  mustAppendEntry,
  newTestConfig,
  newTestMemoryStorage,
  newTestRaft,
  nextEnts,
  prop,
  readMessages,
} from './support';
import { MemoryStorage } from '../../../../src/engine/store/raft/storage';

const hup = (id: NodeId) => msg({ from: id, to: id, type: 'MsgHup' });
const propose = (id: NodeId, data = 'somedata') => msg({ from: id, to: id, type: 'MsgProp', entries: [prop(data)] });
const snapshot = (index: number, term: number, voters: NodeId[]): Snapshot => ({ metadata: { index, term, voters } });

function expectOneMessage(r: Raft): Message {
  const msgs = readMessages(r);
  assert.equal(msgs.length, 1, 'expect one message');
  return msgs[0]!;
}

describe('raft replication (etcd-io/raft raft_test.go)', () => {
  it('replicates proposals to every node, through any leader (TestLogReplication)', () => {
    const tests: Array<[Message[], number]> = [
      [[propose(1)], 2],
      [[propose(1), msg({ from: 1, to: 2, type: 'MsgHup' }), propose(2)], 4],
    ];
    tests.forEach(([msgs, wcommitted], i) => {
      const tt = new Network(undefined, undefined, undefined, undefined);
      tt.send(hup(1));
      for (const m of msgs) tt.send(m);
      for (const id of [1, 2, 3]) {
        const sm = tt.raft(id);
        assert.equal(sm.raftLog.committed, wcommitted, `#${i}.${id}`);
        const ents = nextEnts(sm, tt.storage.get(id)!).filter((e) => e.data !== undefined);
        const props = msgs.filter((m) => m.type === 'MsgProp');
        props.forEach((m, k) => assert.equal(ents[k]!.data, m.entries[0]!.data, `#${i}.${id}`));
      }
    });
  });

  it('a single node commits its proposals at once (TestSingleNodeCommit)', () => {
    const tt = new Network(undefined, newTestRaft(1, 10, 1, newTestMemoryStorage([1])));
    tt.send(hup(1));
    tt.send(propose(1, 'some data'));
    tt.send(propose(1, 'some data'));
    assert.equal(tt.raft(1).raftLog.committed, 3);
  });

  it('entries of an earlier term commit only with an entry of the new term (TestCannotCommitWithoutNewTermEntry)', () => {
    const tt = new Network(undefined, undefined, undefined, undefined, undefined, undefined);
    tt.send(hup(1));
    // Only node 2 gets the entries: no majority.
    tt.cut(1, 3);
    tt.cut(1, 4);
    tt.cut(1, 5);
    tt.send(propose(1, 'some data'));
    tt.send(propose(1, 'some data'));
    assert.equal(tt.raft(1).raftLog.committed, 1);
    tt.recover();
    // Node 2 wins, but the appends of its empty entry are lost.
    tt.ignore('MsgApp');
    tt.send(hup(2));
    const sm = tt.raft(2);
    assert.equal(sm.raftLog.committed, 1);
    tt.recover();
    tt.send(msg({ from: 2, to: 2, type: 'MsgBeat' }));
    tt.send(propose(2, 'some data'));
    assert.equal(sm.raftLog.committed, 5);
  });

  it('a new leader\'s empty entry commits the earlier entries (TestCommitWithoutNewTermEntry)', () => {
    const tt = new Network(undefined, undefined, undefined, undefined, undefined, undefined);
    tt.send(hup(1));
    tt.cut(1, 3);
    tt.cut(1, 4);
    tt.cut(1, 5);
    tt.send(propose(1, 'some data'));
    tt.send(propose(1, 'some data'));
    const sm = tt.raft(1);
    assert.equal(sm.raftLog.committed, 1);
    tt.recover();
    tt.send(hup(2));
    assert.equal(sm.raftLog.committed, 4);
  });

  it('messages of an old leader do not break the log (TestOldMessages)', () => {
    const tt = new Network(undefined, undefined, undefined, undefined);
    tt.send(hup(1));
    tt.send(hup(2));
    tt.send(hup(1));
    // An append from the term-2 leader arrives at the term-3 leader.
    tt.send(msg({ from: 2, to: 1, type: 'MsgApp', term: 2, entries: entries(3, 2) }));
    tt.send(propose(1));
    const want = ltoa(logOf([ent(1, 1), ent(2, 2), ent(3, 3), ent(4, 3, 'somedata')]));
    for (const id of [1, 2, 3]) {
      assert.equal(ltoa(tt.raft(id)), want, `node ${id}`);
    }
  });

  it('a proposal is replicated when a majority is up, and goes nowhere otherwise (TestProposal)', () => {
    const tests: Array<[Network, boolean]> = [
      [new Network(undefined, undefined, undefined, undefined), true],
      [new Network(undefined, undefined, undefined, BLACK_HOLE), true],
      [new Network(undefined, undefined, BLACK_HOLE, BLACK_HOLE), false],
      [new Network(undefined, undefined, BLACK_HOLE, BLACK_HOLE, undefined), false],
      [new Network(undefined, undefined, BLACK_HOLE, BLACK_HOLE, undefined, undefined), true],
    ];
    tests.forEach(([tt, success], j) => {
      tt.send(hup(1));
      tt.send(propose(1));
      const want = success ? [[1, 1, undefined], [2, 1, 'somedata']] : [];
      for (const [id, p] of tt.peers) {
        if (p === BLACK_HOLE) continue;
        assert.deepEqual(p.raftLog.allEntries().map((e) => [e.index, e.term, e.data]), want, `#${j}, peer ${id}`);
      }
      assert.equal(tt.raft(1).term, 1, `#${j}`);
    });
  });

  it('a follower forwards a proposal to the leader (TestProposalByProxy)', () => {
    for (const [j, tt] of [new Network(undefined, undefined, undefined, undefined), new Network(undefined, undefined, undefined, BLACK_HOLE)].entries()) {
      tt.send(hup(1));
      tt.send(propose(2));
      for (const [id, p] of tt.peers) {
        if (p === BLACK_HOLE) continue;
        assert.deepEqual(p.raftLog.allEntries().map((e) => [e.index, e.term, e.data]), [[1, 1, undefined], [2, 1, 'somedata']], `#${j}.${id}`);
      }
      assert.equal(tt.raft(1).term, 1, `#${j}`);
    }
  });

  it('commits the majority\'s index only when it is of the current term (TestCommit)', () => {
    const tests: Array<[number[], ReturnType<typeof entries>, number, number]> = [
      // single
      [[1], entries(1, 1), 1, 1],
      [[1], entries(1, 1), 2, 0],
      [[2], entries(1, 1, 2), 2, 2],
      [[1], entries(1, 2), 2, 1],
      // odd
      [[2, 1, 1], entries(1, 1, 2), 1, 1],
      [[2, 1, 1], entries(1, 1, 1), 2, 0],
      [[2, 1, 2], entries(1, 1, 2), 2, 2],
      [[2, 1, 2], entries(1, 1, 1), 2, 0],
      // even
      [[2, 1, 1, 1], entries(1, 1, 2), 1, 1],
      [[2, 1, 1, 1], entries(1, 1, 1), 2, 0],
      [[2, 1, 1, 2], entries(1, 1, 2), 1, 1],
      [[2, 1, 1, 2], entries(1, 1, 1), 2, 0],
      [[2, 1, 2, 2], entries(1, 1, 2), 2, 2],
      [[2, 1, 2, 2], entries(1, 1, 1), 2, 0],
    ];
    tests.forEach(([matches, logs, smTerm, w], i) => {
      const ids = matches.map((_, j) => j + 1);
      const storage = newTestMemoryStorage(ids);
      storage.append(logs);
      storage.setHardState({ term: smTerm, vote: 0, commit: 0 });
      const sm = newTestRaft(1, 10, 2, storage);
      matches.forEach((m, j) => {
        const pr = sm.trk.progress.get(j + 1)!;
        pr.match = m;
        pr.next = m + 1;
      });
      sm.maybeCommit();
      assert.equal(sm.raftLog.committed, w, `#${i}`);
    });
  });

  it('ignores a message of an older term (TestStepIgnoreOldTermMsg)', () => {
    let called = false;
    const sm = newTestRaft(1, 10, 1, newTestMemoryStorage([1]));
    sm.stepFn = () => {
      called = true;
      return undefined;
    };
    sm.term = 2;
    sm.step(msg({ type: 'MsgApp', term: sm.term - 1 }));
    assert.equal(called, false);
  });

  it('handles appends: log matching and the commit index (TestHandleMsgApp)', () => {
    const tests: Array<[Message, number, number, boolean]> = [
      // Ensure 1: the previous entry must match.
      [msg({ type: 'MsgApp', term: 2, logTerm: 3, index: 2, commit: 3 }), 2, 0, true],
      [msg({ type: 'MsgApp', term: 2, logTerm: 3, index: 3, commit: 3 }), 2, 0, true],
      // Ensure 2: conflicting entries are replaced, new ones appended.
      [msg({ type: 'MsgApp', term: 2, logTerm: 1, index: 1, commit: 1 }), 2, 1, false],
      [msg({ type: 'MsgApp', term: 2, logTerm: 0, index: 0, commit: 1, entries: [ent(1, 2)] }), 1, 1, false],
      [msg({ type: 'MsgApp', term: 2, logTerm: 2, index: 2, commit: 3, entries: [ent(3, 2), ent(4, 2)] }), 4, 3, false],
      [msg({ type: 'MsgApp', term: 2, logTerm: 2, index: 2, commit: 4, entries: [ent(3, 2)] }), 3, 3, false],
      [msg({ type: 'MsgApp', term: 2, logTerm: 1, index: 1, commit: 4, entries: [ent(2, 2)] }), 2, 2, false],
      // Ensure 3: commit only up to the last new entry.
      [msg({ type: 'MsgApp', term: 1, logTerm: 1, index: 1, commit: 3 }), 2, 1, false],
      [msg({ type: 'MsgApp', term: 1, logTerm: 1, index: 1, commit: 3, entries: [ent(2, 2)] }), 2, 2, false],
      [msg({ type: 'MsgApp', term: 2, logTerm: 2, index: 2, commit: 3 }), 2, 2, false],
      [msg({ type: 'MsgApp', term: 2, logTerm: 2, index: 2, commit: 4 }), 2, 2, false],
    ];
    tests.forEach(([m, wIndex, wCommit, wReject], i) => {
      const storage = newTestMemoryStorage([1]);
      storage.append(entries(1, 1, 2));
      const sm = newTestRaft(1, 10, 1, storage);
      sm.becomeFollower(2, 0);
      sm.handleAppendEntries(m);
      assert.equal(sm.raftLog.lastIndex(), wIndex, `#${i}`);
      assert.equal(sm.raftLog.committed, wCommit, `#${i}`);
      const out = readMessages(sm);
      assert.equal(out.length, 1, `#${i}`);
      assert.equal(out[0]!.reject, wReject, `#${i}`);
    });
  });

  it('a heartbeat moves the commit index forward, never back (TestHandleHeartbeat)', () => {
    const commit = 2;
    const tests: Array<[Message, number]> = [
      [msg({ from: 2, to: 1, type: 'MsgHeartbeat', term: 2, commit: commit + 1 }), commit + 1],
      [msg({ from: 2, to: 1, type: 'MsgHeartbeat', term: 2, commit: commit - 1 }), commit],
    ];
    tests.forEach(([m, wCommit], i) => {
      const storage = newTestMemoryStorage([1, 2]);
      storage.append(entries(1, 1, 2, 3));
      const sm = newTestRaft(1, 5, 1, storage);
      sm.becomeFollower(2, 2);
      sm.raftLog.commitTo(commit);
      sm.handleHeartbeat(m);
      assert.equal(sm.raftLog.committed, wCommit, `#${i}`);
      const out = readMessages(sm);
      assert.equal(out.length, 1, `#${i}`);
      assert.equal(out[0]!.type, 'MsgHeartbeatResp', `#${i}`);
    });
  });

  it('a heartbeat answer from a lagging follower triggers an append (TestHandleHeartbeatResp)', () => {
    const storage = newTestMemoryStorage([1, 2]);
    storage.append(entries(1, 1, 2, 3));
    const sm = newTestRaft(1, 5, 1, storage);
    sm.becomeCandidate();
    sm.becomeLeader();
    sm.raftLog.commitTo(sm.raftLog.lastIndex());
    sm.step(msg({ from: 2, type: 'MsgHeartbeatResp' }));
    let msgs = readMessages(sm);
    assert.equal(msgs.length, 1);
    assert.equal(msgs[0]!.type, 'MsgApp');
    sm.step(msg({ from: 2, type: 'MsgHeartbeatResp' }));
    msgs = readMessages(sm);
    assert.equal(msgs.length, 1);
    assert.equal(msgs[0]!.type, 'MsgApp');
    sm.step(msg({ from: 2, type: 'MsgAppResp', index: msgs[0]!.index + msgs[0]!.entries.length }));
    readMessages(sm);
    sm.step(msg({ from: 2, type: 'MsgHeartbeatResp' }));
    assert.deepEqual(readMessages(sm), []);
  });

  it('an acknowledged follower is sent the next entries at once (TestMsgAppRespWaitReset)', () => {
    const s = newTestMemoryStorage([1, 2, 3]);
    const sm = newTestRaft(1, 5, 1, s);
    sm.becomeCandidate();
    sm.becomeLeader();
    nextEnts(sm, s);
    sm.step(msg({ from: 2, type: 'MsgAppResp', index: 1 }));
    assert.equal(sm.raftLog.committed, 1);
    readMessages(sm);
    sm.step(msg({ from: 1, type: 'MsgProp', entries: [prop()] }));
    let msgs = readMessages(sm);
    assert.equal(msgs.length, 1);
    assert.equal(msgs[0]!.type, 'MsgApp');
    assert.equal(msgs[0]!.to, 2);
    assert.deepEqual(msgs[0]!.entries.map((e) => e.index), [2]);
    sm.step(msg({ from: 3, type: 'MsgAppResp', index: 1 }));
    msgs = readMessages(sm);
    assert.equal(msgs.length, 1);
    assert.equal(msgs[0]!.type, 'MsgApp');
    assert.equal(msgs[0]!.to, 3);
    assert.deepEqual(msgs[0]!.entries.map((e) => e.index), [2]);
  });

  it('handles append answers: stale, rejected and accepted (TestLeaderAppResp)', () => {
    const tests: Array<[number, boolean, number, number, number, number, number]> = [
      [3, true, 0, 3, 0, 0, 0], // stale: no reply
      [2, true, 0, 2, 1, 1, 0], // denied: next moves back, a probe goes out
      [2, false, 2, 4, 2, 2, 2], // accepted: commit, broadcast with the commit index
      [0, false, 0, 4, 1, 0, 0],
    ];
    for (const [index, reject, wmatch, wnext, wmsgNum, windex, wcommitted] of tests) {
      const storage = newTestMemoryStorage([1, 2, 3]);
      storage.append(entries(1, 1, 1));
      const sm = newTestRaft(1, 10, 1, storage);
      sm.becomeCandidate();
      sm.becomeLeader();
      readMessages(sm);
      assert.equal(sm.step(msg({ from: 2, type: 'MsgAppResp', index, term: sm.term, reject, rejectHint: index })), undefined);
      const p = sm.trk.progress.get(2)!;
      assert.equal(p.match, wmatch);
      assert.equal(p.next, wnext);
      const msgs = readMessages(sm);
      assert.equal(msgs.length, wmsgNum);
      for (const m of msgs) {
        assert.equal(m.index, windex);
        assert.equal(m.commit, wcommitted);
      }
    }
  });

  it('heartbeats carry min(commit, match) and no entries (TestBcastBeat)', () => {
    const offset = 1000;
    const storage = new MemoryStorage();
    storage.applySnapshot(snapshot(offset, 1, [1, 2, 3]));
    const sm = newTestRaft(1, 10, 1, storage);
    sm.term = 1;
    sm.becomeCandidate();
    sm.becomeLeader();
    for (let i = 0; i < 10; i++) mustAppendEntry(sm, ent(i + 1, 0));
    advanceMessagesAfterAppend(sm);
    const p2 = sm.trk.progress.get(2)!;
    const p3 = sm.trk.progress.get(3)!;
    p2.match = 5;
    p2.next = 6;
    p3.match = sm.raftLog.lastIndex();
    p3.next = sm.raftLog.lastIndex() + 1;
    sm.step(msg({ type: 'MsgBeat' }));
    const msgs = readMessages(sm);
    assert.equal(msgs.length, 2);
    const want = new Map([
      [2, Math.min(sm.raftLog.committed, p2.match)],
      [3, Math.min(sm.raftLog.committed, p3.match)],
    ]);
    for (const m of msgs) {
      assert.equal(m.type, 'MsgHeartbeat');
      assert.equal(m.index, 0);
      assert.equal(m.logTerm, 0);
      assert.equal(m.commit, want.get(m.to));
      want.delete(m.to);
      assert.deepEqual(m.entries, []);
    }
  });

  it('only a leader answers MsgBeat with heartbeats (TestRecvMsgBeat)', () => {
    const tests: Array<[StateType, number]> = [
      ['StateLeader', 2],
      ['StateCandidate', 0],
      ['StateFollower', 0],
    ];
    tests.forEach(([state, wMsg], i) => {
      const storage = newTestMemoryStorage([1, 2, 3]);
      storage.append(entries(1, 1, 1));
      const sm = newTestRaft(1, 10, 1, storage);
      sm.term = 1;
      sm.state = state;
      // The role's step function without its transition, as upstream's test sets it.
      if (state === 'StateLeader') sm.stepFn = stepLeader;
      if (state === 'StateCandidate') sm.stepFn = stepCandidate;
      sm.step(msg({ from: 1, to: 1, type: 'MsgBeat' }));
      const msgs = readMessages(sm);
      assert.equal(msgs.length, wMsg, `#${i}`);
      for (const m of msgs) assert.equal(m.type, 'MsgHeartbeat');
    });
  });

  it('Next moves optimistically only in StateReplicate (TestLeaderIncreaseNext)', () => {
    const previousEnts = entries(1, 1, 2, 3);
    const tests: Array<['StateReplicate' | 'StateProbe', number, number]> = [
      // Replicate: next = last index + 1 after the leader's empty entry and the proposal.
      ['StateReplicate', 2, previousEnts.length + 1 + 1 + 1],
      // Probe: next stays.
      ['StateProbe', 2, 2],
    ];
    tests.forEach(([state, next, wnext], i) => {
      const sm = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2]));
      sm.raftLog.append(previousEnts);
      sm.becomeCandidate();
      sm.becomeLeader();
      const p = sm.trk.progress.get(2)!;
      p.state = state;
      p.next = next;
      sm.step(propose(1));
      assert.equal(sm.trk.progress.get(2)!.next, wnext, `#${i}`);
    });
  });

  it('a probed follower gets one append at a time, resumed by heartbeats (TestSendAppendForProgressProbe)', () => {
    const r = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2]));
    r.becomeCandidate();
    r.becomeLeader();
    readMessages(r);
    r.trk.progress.get(2)!.becomeProbe();
    for (let i = 0; i < 3; i++) {
      if (i === 0) {
        // The first append goes out and pauses the probe.
        mustAppendEntry(r, prop('somedata'));
        r.sendAppend(2);
        const m = readMessages(r);
        assert.equal(m.length, 1);
        assert.equal(m[0]!.index, 0);
      }
      assert.equal(r.trk.progress.get(2)!.msgAppFlowPaused, true);
      for (let j = 0; j < 10; j++) {
        mustAppendEntry(r, prop('somedata'));
        r.sendAppend(2);
        assert.deepEqual(readMessages(r), []);
      }
      // A heartbeat does not unpause.
      for (let j = 0; j < r.heartbeatTimeout; j++) r.step(msg({ from: 1, to: 1, type: 'MsgBeat' }));
      assert.equal(r.trk.progress.get(2)!.msgAppFlowPaused, true);
      const m = readMessages(r);
      assert.equal(m.length, 1);
      assert.equal(m[0]!.type, 'MsgHeartbeat');
    }
    // Its answer does: another probe goes out.
    r.step(msg({ from: 2, to: 1, type: 'MsgHeartbeatResp' }));
    const m = readMessages(r);
    assert.equal(m.length, 1);
    assert.equal(m[0]!.index, 0);
    assert.equal(r.trk.progress.get(2)!.msgAppFlowPaused, true);
  });

  it('a replicated follower gets every append (TestSendAppendForProgressReplicate)', () => {
    const r = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2]));
    r.becomeCandidate();
    r.becomeLeader();
    readMessages(r);
    r.trk.progress.get(2)!.becomeReplicate();
    for (let i = 0; i < 10; i++) {
      mustAppendEntry(r, prop('somedata'));
      r.sendAppend(2);
      assert.equal(readMessages(r).length, 1, `#${i}`);
    }
  });

  it('a follower being sent a snapshot gets no appends (TestSendAppendForProgressSnapshot)', () => {
    const r = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2]));
    r.becomeCandidate();
    r.becomeLeader();
    readMessages(r);
    r.trk.progress.get(2)!.becomeSnapshot(10);
    for (let i = 0; i < 10; i++) {
      mustAppendEntry(r, prop('somedata'));
      r.sendAppend(2);
      assert.deepEqual(readMessages(r), [], `#${i}`);
    }
  });

  it('an unreachable follower is probed again from its match (TestRecvMsgUnreachable)', () => {
    const s = newTestMemoryStorage([1, 2]);
    s.append(entries(1, 1, 2, 3));
    const r = newTestRaft(1, 10, 1, s);
    r.becomeCandidate();
    r.becomeLeader();
    readMessages(r);
    const p = r.trk.progress.get(2)!;
    p.match = 3;
    p.becomeReplicate();
    p.next = 6;
    r.step(msg({ from: 2, to: 1, type: 'MsgUnreachable' }));
    assert.equal(p.state, 'StateProbe');
    assert.equal(p.next, p.match + 1);
  });

  it('the leader\'s own acknowledgement waits for its log write (TestProgressLeader)', () => {
    const r = newTestRaft(1, 5, 1, newTestMemoryStorage([1, 2]));
    r.becomeCandidate();
    r.becomeLeader();
    r.trk.progress.get(2)!.becomeReplicate();
    for (let i = 0; i < 5; i++) assert.equal(r.step(propose(1, 'foo')), undefined, `#${i}`);
    assert.equal(r.trk.progress.get(1)!.match, 0);
    const ents = r.raftLog.nextUnstableEnts();
    assert.equal(ents.length, 6);
    assert.equal(ents[0]!.data, undefined);
    assert.equal(ents[5]!.data, 'foo');
    advanceMessagesAfterAppend(r);
    assert.equal(r.trk.progress.get(1)!.match, 6);
    assert.equal(r.trk.progress.get(1)!.next, 7);
  });

  it('a paused follower is resumed by its heartbeat answer (TestProgressResumeByHeartbeatResp)', () => {
    const r = newTestRaft(1, 5, 1, newTestMemoryStorage([1, 2]));
    r.becomeCandidate();
    r.becomeLeader();
    const p = r.trk.progress.get(2)!;
    p.msgAppFlowPaused = true;
    r.step(msg({ from: 1, to: 1, type: 'MsgBeat' }));
    assert.equal(p.msgAppFlowPaused, true);
    p.becomeReplicate();
    assert.equal(p.msgAppFlowPaused, false);
    p.msgAppFlowPaused = true;
    r.step(msg({ from: 2, to: 1, type: 'MsgHeartbeatResp' }));
    assert.equal(p.msgAppFlowPaused, false);
  });

  it('a probe carries one message until answered (TestProgressPaused)', () => {
    const r = newTestRaft(1, 5, 1, newTestMemoryStorage([1, 2]));
    r.becomeCandidate();
    r.becomeLeader();
    for (let i = 0; i < 3; i++) r.step(propose(1));
    assert.equal(readMessages(r).length, 1);
  });

  it('appends are limited by MaxInflightMsgs and MaxInflightBytes (TestProgressFlowControl)', () => {
    const cfg = newTestConfig(1, 5, 1, newTestMemoryStorage([1, 2]));
    cfg.maxInflightMsgs = 3;
    cfg.maxSizePerMsg = 2048;
    cfg.maxInflightBytes = 9000;
    const r = new Raft(cfg);
    r.becomeCandidate();
    r.becomeLeader();
    readMessages(r);
    r.trk.progress.get(2)!.becomeProbe();
    const blob = 'a'.repeat(1000);
    const large = 'b'.repeat(5000);
    for (let i = 0; i < 22; i++) r.step(propose(1, i >= 10 && i < 16 ? large : blob));
    const ms = readMessages(r);
    assert.equal(ms.length, 1);
    assert.equal(ms[0]!.type, 'MsgApp');
    assert.equal(ms[0]!.entries.length, 2);
    assert.equal(ms[0]!.entries[0]!.data, undefined);
    assert.equal(String(ms[0]!.entries[1]!.data).length, 1000);
    const ackAndVerify = (index: number, ...expEntries: number[]): number => {
      r.step(msg({ from: 2, to: 1, type: 'MsgAppResp', index }));
      const out = readMessages(r);
      assert.equal(out.length, expEntries.length);
      out.forEach((m, i) => {
        assert.equal(m.type, 'MsgApp', `#${i}`);
        assert.equal(m.entries.length, expEntries[i], `#${i}`);
      });
      const last = out[out.length - 1]!.entries;
      return last.length === 0 ? index : last[last.length - 1]!.index;
    };
    let index = ackAndVerify(ms[0]!.entries[1]!.index, 2, 2, 2);
    index = ackAndVerify(index, 2, 1, 1);
    index = ackAndVerify(index, 1, 1);
    index = ackAndVerify(index, 1, 1);
    index = ackAndVerify(index, 1, 2, 2);
    ackAndVerify(index, 2);
  });

  it('re-sends from the match index after a reordered rejection (TestLogReplicationWithReorderedMessage)', () => {
    const r1 = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2]));
    r1.becomeCandidate();
    r1.becomeLeader();
    readMessages(r1);
    r1.trk.progress.get(2)!.becomeReplicate();
    const r2 = newTestRaft(2, 10, 1, newTestMemoryStorage([1, 2]));
    mustAppendEntry(r1, prop('somedata'));
    r1.sendAppend(2);
    const req1 = expectOneMessage(r1);
    mustAppendEntry(r1, prop('somedata'));
    r1.sendAppend(2);
    const req2 = expectOneMessage(r1);
    // The second append arrives first and is rejected.
    r2.step(req2);
    const resp2 = expectOneMessage(r2);
    assert.equal(resp2.reject, true);
    assert.equal(resp2.rejectHint, 0);
    assert.equal(resp2.index, 2);
    r2.step(req1);
    const m = expectOneMessage(r2);
    assert.equal(m.reject, false);
    assert.equal(m.index, 2);
    r1.step(m);
    expectOneMessage(r1);
    assert.equal(r1.trk.progress.get(2)!.match, 2);
    r1.step(msg({ from: 2, to: 1, type: 'MsgUnreachable' }));
    assert.equal(r1.trk.progress.get(2)!.state, 'StateProbe');
    r1.step(resp2);
    assert.equal(expectOneMessage(r1).index, r1.trk.progress.get(2)!.match);
  });
});

describe('raft snapshots (etcd-io/raft raft_test.go)', () => {
  it('restores the log from a snapshot, once (TestRestore)', () => {
    const s = snapshot(11, 11, [1, 2, 3]);
    const sm = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2]));
    assert.equal(sm.restore(s), true);
    assert.equal(sm.raftLog.lastIndex(), 11);
    assert.equal(sm.raftLog.term(11), 11);
    assert.deepEqual(sm.trk.voters, [1, 2, 3]);
    assert.equal(sm.restore(s), false);
    for (let i = 0; i < sm.randomizedElectionTimeout; i++) sm.tick();
    assert.equal(sm.state, 'StateFollower');
  });

  it('a snapshot of entries it has only moves the commit index (TestRestoreIgnoreSnapshot)', () => {
    const sm = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2]));
    sm.raftLog.append(entries(1, 1, 1, 1));
    sm.raftLog.commitTo(1);
    assert.equal(sm.restore(snapshot(1, 1, [1, 2])), false);
    assert.equal(sm.raftLog.committed, 1);
    assert.equal(sm.restore(snapshot(2, 1, [1, 2])), false);
    assert.equal(sm.raftLog.committed, 2);
  });

  it('a follower behind the compacted log is sent a snapshot (TestProvideSnap)', () => {
    const sm = newTestRaft(1, 10, 1, newTestMemoryStorage([1]));
    sm.restore(snapshot(11, 11, [1, 2]));
    sm.becomeCandidate();
    sm.becomeLeader();
    // Force the follower's next below the first index.
    sm.trk.progress.get(2)!.next = sm.raftLog.firstIndex();
    sm.step(msg({ from: 2, to: 1, type: 'MsgAppResp', index: sm.trk.progress.get(2)!.next - 1, reject: true }));
    const msgs = readMessages(sm);
    assert.equal(msgs.length, 1);
    assert.equal(msgs[0]!.type, 'MsgSnap');
  });

  it('no snapshot for a follower not recently active (TestIgnoreProvidingSnap)', () => {
    const sm = newTestRaft(1, 10, 1, newTestMemoryStorage([1]));
    sm.restore(snapshot(11, 11, [1, 2]));
    sm.becomeCandidate();
    sm.becomeLeader();
    const p = sm.trk.progress.get(2)!;
    p.next = sm.raftLog.firstIndex() - 1;
    p.recentActive = false;
    sm.step(propose(1));
    assert.deepEqual(readMessages(sm), []);
  });

  it('a snapshot names its sender the leader (TestRestoreFromSnapMsg)', () => {
    const sm = newTestRaft(2, 10, 1, newTestMemoryStorage([1, 2]));
    sm.step(msg({ type: 'MsgSnap', from: 1, term: 2, snapshot: snapshot(11, 11, [1, 2]) }));
    assert.equal(sm.lead, 1);
  });

  it('a slow node catches up through a snapshot and the log after it (TestSlowNodeRestore)', () => {
    const nt = new Network(undefined, undefined, undefined, undefined);
    nt.send(hup(1));
    nt.isolate(3);
    for (let j = 0; j <= 100; j++) nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
    const lead = nt.raft(1);
    nextEnts(lead, nt.storage.get(1)!);
    nt.storage.get(1)!.createSnapshot(lead.raftLog.applied, lead.trk.voters);
    nt.storage.get(1)!.compact(lead.raftLog.applied);
    nt.recover();
    // Heartbeats until the leader sees node 3 active again, which lets it send the snapshot.
    do nt.send(msg({ from: 1, to: 1, type: 'MsgBeat' }));
    while (!lead.trk.progress.get(3)!.recentActive);
    nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
    const follower = nt.raft(3);
    nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
    assert.equal(follower.raftLog.committed, lead.raftLog.committed);
  });
});

describe('raft ReadIndex (etcd-io/raft raft_test.go)', () => {
  it('answers reads from any node at the commit index after a heartbeat round (TestReadOnlyOptionSafe)', () => {
    const [a, b, c] = [1, 2, 3].map((id) => newTestRaft(id, 10, 1, newTestMemoryStorage([1, 2, 3]))) as [Raft, Raft, Raft];
    const nt = new Network(undefined, a, b, c);
    b.randomizedElectionTimeout = b.electionTimeout + 1;
    for (let i = 0; i < b.electionTimeout; i++) b.tick();
    nt.send(hup(1));
    assert.equal(a.state, 'StateLeader');
    const tests: Array<[Raft, number, number, string]> = [
      [a, 10, 11, 'ctx1'],
      [b, 10, 21, 'ctx2'],
      [c, 10, 31, 'ctx3'],
      [a, 10, 41, 'ctx4'],
      [b, 10, 51, 'ctx5'],
      [c, 10, 61, 'ctx6'],
    ];
    tests.forEach(([sm, proposals, wri, wctx], i) => {
      for (let j = 0; j < proposals; j++) nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
      nt.send(msg({ from: sm.id, to: sm.id, type: 'MsgReadIndex', entries: [prop(wctx)] }));
      assert.ok(sm.readStates.length > 0, `#${i}`);
      assert.equal(sm.readStates[0]!.index, wri, `#${i}`);
      assert.equal(sm.readStates[0]!.requestCtx, wctx, `#${i}`);
      sm.readStates = [];
    });
  });

  it('a new leader answers reads only after committing an entry of its term (TestReadOnlyForNewLeader)', () => {
    const nodeConfigs: Array<[NodeId, number, number, number]> = [
      [1, 1, 1, 0],
      [2, 2, 2, 2],
      [3, 2, 2, 2],
    ];
    const peers = nodeConfigs.map(([id, committed, applied, compactIndex]) => {
      const storage = newTestMemoryStorage([1, 2, 3]);
      storage.append(entries(1, 1, 1));
      storage.setHardState({ term: 1, vote: 0, commit: committed });
      if (compactIndex !== 0) storage.compact(compactIndex);
      const cfg = newTestConfig(id, 10, 1, storage);
      cfg.applied = applied;
      return new Raft(cfg);
    });
    const nt = new Network(undefined, ...peers);
    // The new leader's empty entry is not replicated yet.
    nt.ignore('MsgApp');
    nt.send(hup(1));
    const sm = nt.raft(1);
    assert.equal(sm.state, 'StateLeader');
    const windex = 4;
    const wctx = 'ctx';
    nt.send(msg({ from: 1, to: 1, type: 'MsgReadIndex', entries: [prop(wctx)] }));
    assert.deepEqual(sm.readStates, []);
    nt.recover();
    for (let i = 0; i < sm.heartbeatTimeout; i++) sm.tick();
    nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
    assert.equal(sm.raftLog.committed, 4);
    assert.equal(sm.raftLog.zeroTermOnOutOfBounds(sm.raftLog.committed), sm.term);
    assert.equal(sm.readStates.length, 1);
    assert.deepEqual(sm.readStates[0], { index: windex, requestCtx: wctx });
    nt.send(msg({ from: 1, to: 1, type: 'MsgReadIndex', entries: [prop(wctx)] }));
    assert.equal(sm.readStates.length, 2);
    assert.deepEqual(sm.readStates[1], { index: windex, requestCtx: wctx });
  });
});
