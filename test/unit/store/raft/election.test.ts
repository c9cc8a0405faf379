/**
 * Elections, pre-vote, check-quorum and leader transfer, ported from etcd-io/raft's
 * raft_test.go: each test names the upstream test it follows.
 */
import { strict as assert } from 'node:assert';
import type { Raft } from '../../../../src/engine/store/raft/raft';
import { PROPOSAL_DROPPED, type MessageType, type NodeId, type StateType } from '../../../../src/engine/store/raft/types';
import {
  BLACK_HOLE,
  Network,
  advanceMessagesAfterAppend,
  entries,
  entsWithConfig,
  msg,
  newTestMemoryStorage,
  newTestRaft,
  nextEnts,
  preVoteConfig,
  prop,
  readMessages,
  votedWithConfig,
} from './support';

const hup = (id: NodeId) => msg({ from: id, to: id, type: 'MsgHup' });
const stateOf = (r: Raft): StateType => r.state;

function checkLeaderTransferState(r: Raft, state: StateType, lead: NodeId): void {
  assert.equal(r.state, state);
  assert.equal(r.lead, lead);
  assert.equal(r.leadTransferee, 0);
}

function threeRafts(configure?: (r: Raft) => void): [Raft, Raft, Raft] {
  const rs = [1, 2, 3].map((id) => newTestRaft(id, 10, 1, newTestMemoryStorage([1, 2, 3]))) as [Raft, Raft, Raft];
  if (configure) rs.forEach(configure);
  return rs;
}

describe('raft elections (etcd-io/raft raft_test.go)', () => {
  // testLeaderElection: the campaigner wins with a majority, waits without one, and loses to
  // nodes with newer logs.
  for (const preVote of [false, true]) {
    it(`elects a leader with a majority${preVote ? ', with pre-vote (TestLeaderElectionPreVote)' : ' (TestLeaderElection)'}`, () => {
      const cfg = preVote ? preVoteConfig : undefined;
      const candState: StateType = preVote ? 'StatePreCandidate' : 'StateCandidate';
      const candTerm = preVote ? 0 : 1;
      const tests: Array<[Network, StateType, number]> = [
        [new Network(cfg, undefined, undefined, undefined), 'StateLeader', 1],
        [new Network(cfg, undefined, undefined, BLACK_HOLE), 'StateLeader', 1],
        [new Network(cfg, undefined, BLACK_HOLE, BLACK_HOLE), candState, candTerm],
        [new Network(cfg, undefined, BLACK_HOLE, BLACK_HOLE, undefined), candState, candTerm],
        [new Network(cfg, undefined, BLACK_HOLE, BLACK_HOLE, undefined, undefined), 'StateLeader', 1],
        // Three of the others have logs from term 1 that node 1 lacks: it cannot win.
        [new Network(cfg, undefined, entsWithConfig(cfg, 1), entsWithConfig(cfg, 1), entsWithConfig(cfg, 1, 1), undefined), 'StateFollower', 1],
      ];
      tests.forEach(([n, state, term], i) => {
        n.send(hup(1));
        assert.equal(n.raft(1).state, state, `#${i}`);
        assert.equal(n.raft(1).term, term, `#${i}`);
      });
    });
  }

  // testLeaderCycle: each node in turn can be elected, and the others follow.
  for (const preVote of [false, true]) {
    it(`leadership cycles through every node${preVote ? ' with pre-vote (TestLeaderCyclePreVote)' : ' (TestLeaderCycle)'}`, () => {
      const n = new Network(preVote ? preVoteConfig : undefined, undefined, undefined, undefined);
      for (let campaigner = 1; campaigner <= 3; campaigner++) {
        n.send(hup(campaigner));
        for (const id of [1, 2, 3]) assert.equal(n.raft(id).state, id === campaigner ? 'StateLeader' : 'StateFollower', `campaigner ${campaigner}, node ${id}`);
      }
    });
  }

  // testLeaderElectionOverwriteNewerLogs: a node with an older last term can still be elected by
  // a majority and then overwrites an uncommitted entry of a higher term elsewhere.
  for (const preVote of [false, true]) {
    it(`a new leader overwrites uncommitted newer entries${preVote ? ' (TestLeaderElectionOverwriteNewerLogsPreVote)' : ' (TestLeaderElectionOverwriteNewerLogs)'}`, () => {
      const cfg = preVote ? preVoteConfig : undefined;
      const n = new Network(cfg, entsWithConfig(cfg, 1), entsWithConfig(cfg, 1), entsWithConfig(cfg, 2), votedWithConfig(cfg, 3, 2), votedWithConfig(cfg, 3, 2));
      // Node 1 loses (nodes 4 and 5 voted in term 2), but learns of term 2.
      n.send(hup(1));
      assert.equal(n.raft(1).state, 'StateFollower');
      assert.equal(n.raft(1).term, 2);
      n.send(hup(1));
      assert.equal(n.raft(1).state, 'StateLeader');
      assert.equal(n.raft(1).term, 3);
      for (const id of [1, 2, 3, 4, 5]) {
        const ents = n.raft(id).raftLog.allEntries();
        assert.equal(ents.length, 2, `node ${id}`);
        assert.equal(ents[0]!.term, 1);
        assert.equal(ents[1]!.term, 3);
      }
    });
  }

  // testVoteFromAnyState: a vote for a newer term is granted from every state; a pre-vote does
  // not change the term or state.
  for (const vt of ['MsgVote', 'MsgPreVote'] as MessageType[]) {
    it(`grants a ${vt} for a newer term from any state (Test${vt === 'MsgVote' ? '' : 'Pre'}VoteFromAnyState)`, () => {
      for (const st of ['StateFollower', 'StateCandidate', 'StateLeader', 'StatePreCandidate'] as StateType[]) {
        const r = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2, 3]));
        r.term = 1;
        if (st === 'StateFollower') r.becomeFollower(r.term, 3);
        if (st === 'StatePreCandidate') r.becomePreCandidate();
        if (st === 'StateCandidate') r.becomeCandidate();
        if (st === 'StateLeader') {
          r.becomeCandidate();
          r.becomeLeader();
        }
        const origTerm = r.term;
        const newTerm = r.term + 1;
        assert.equal(r.step(msg({ from: 2, to: 1, type: vt, term: newTerm, logTerm: newTerm, index: 42 })), undefined);
        const msgs = readMessages(r);
        assert.equal(msgs.length, 1, `${vt},${st}`);
        assert.equal(msgs[0]!.type, vt === 'MsgVote' ? 'MsgVoteResp' : 'MsgPreVoteResp');
        assert.equal(msgs[0]!.reject, false, `${vt},${st}`);
        if (vt === 'MsgVote') {
          assert.equal(r.state, 'StateFollower', `${vt},${st}`);
          assert.equal(r.term, newTerm);
          assert.equal(r.vote, 2);
        } else {
          assert.equal(r.state, st, `${vt},${st}`);
          assert.equal(r.term, origTerm);
          assert.ok(r.vote === 0 || r.vote === 1);
        }
      }
    });
  }

  it('two candidates: the one without a majority steps down, its entries are not committed (TestDuelingCandidates)', () => {
    const [a, b, c] = threeRafts();
    const nt = new Network(undefined, a, b, c);
    nt.cut(1, 3);
    nt.send(hup(1));
    nt.send(hup(3));
    assert.equal(a.state, 'StateLeader');
    assert.equal(c.state, 'StateCandidate');
    nt.recover();
    // Candidate 3 now learns of term 2 but its log is behind: nobody votes for it.
    nt.send(hup(3));
    assert.equal(c.state, 'StateFollower');
    const want: Array<[Raft, StateType, number, number]> = [
      [a, 'StateFollower', 2, 1],
      [b, 'StateFollower', 2, 1],
      [c, 'StateFollower', 2, 0],
    ];
    want.forEach(([r, state, term, lastIndex], i) => {
      assert.equal(r.state, state, `#${i}`);
      assert.equal(r.term, term, `#${i}`);
      assert.equal(r.raftLog.lastIndex(), lastIndex, `#${i}`);
    });
  });

  it('with pre-vote, a candidate that cannot win does not disturb the leader (TestDuelingPreCandidates)', () => {
    const [a, b, c] = threeRafts((r) => (r.preVote = true));
    const nt = new Network(undefined, a, b, c);
    nt.cut(1, 3);
    nt.send(hup(1));
    nt.send(hup(3));
    assert.equal(a.state, 'StateLeader');
    assert.equal(c.state, 'StateFollower');
    nt.recover();
    nt.send(hup(3));
    const want: Array<[Raft, StateType, number, number]> = [
      [a, 'StateLeader', 1, 1],
      [b, 'StateFollower', 1, 1],
      [c, 'StateFollower', 1, 0],
    ];
    want.forEach(([r, state, term, lastIndex], i) => {
      assert.equal(r.state, state, `#${i}`);
      assert.equal(r.term, term, `#${i}`);
      assert.equal(r.raftLog.lastIndex(), lastIndex, `#${i}`);
    });
  });

  it('an isolated candidate concedes to the elected leader (TestCandidateConcede)', () => {
    const tt = new Network(undefined, undefined, undefined, undefined);
    tt.isolate(1);
    tt.send(hup(1));
    tt.send(hup(3));
    tt.recover();
    tt.send(msg({ from: 3, to: 3, type: 'MsgBeat' }));
    tt.send(msg({ from: 3, to: 3, type: 'MsgProp', entries: [prop('force follower')] }));
    tt.send(msg({ from: 3, to: 3, type: 'MsgBeat' }));
    const a = tt.raft(1);
    assert.equal(a.state, 'StateFollower');
    assert.equal(a.term, 1);
    for (const id of [1, 2, 3]) {
      const ents = tt.raft(id).raftLog.allEntries().map((e) => [e.index, e.term, e.data]);
      assert.deepEqual(ents, [[1, 1, undefined], [2, 1, 'force follower']], `node ${id}`);
    }
  });

  it('a single node elects itself (TestSingleNodeCandidate, TestSingleNodePreCandidate)', () => {
    for (const cfg of [undefined, preVoteConfig]) {
      const tt = new Network(cfg, undefined);
      tt.send(hup(1));
      assert.equal(tt.raft(1).state, 'StateLeader');
    }
  });

  it('counts the votes of one election round (TestRecvMsgVote, TestRecvMsgPreVote)', () => {
    for (const msgType of ['MsgVote', 'MsgPreVote'] as MessageType[]) {
      const tests: Array<[StateType, number, number, NodeId, boolean]> = [
        ['StateFollower', 0, 0, 0, true],
        ['StateFollower', 0, 1, 0, true],
        ['StateFollower', 0, 2, 0, true],
        ['StateFollower', 0, 3, 0, false],
        ['StateFollower', 1, 0, 0, true],
        ['StateFollower', 1, 1, 0, true],
        ['StateFollower', 1, 2, 0, true],
        ['StateFollower', 1, 3, 0, false],
        ['StateFollower', 2, 0, 0, true],
        ['StateFollower', 2, 1, 0, true],
        ['StateFollower', 2, 2, 0, false],
        ['StateFollower', 2, 3, 0, false],
        ['StateFollower', 3, 0, 0, true],
        ['StateFollower', 3, 1, 0, true],
        ['StateFollower', 3, 2, 0, false],
        ['StateFollower', 3, 3, 0, false],
        ['StateFollower', 3, 2, 2, false],
        ['StateFollower', 3, 2, 1, true],
        ['StateLeader', 3, 3, 1, true],
        ['StatePreCandidate', 3, 3, 1, true],
        ['StateCandidate', 3, 3, 1, true],
      ];
      tests.forEach(([state, index, logTerm, voteFor, wreject], i) => {
        const storage = newTestMemoryStorage([1]);
        storage.append(entries(1, 2, 2));
        const sm = newTestRaft(1, 10, 1, storage);
        sm.state = state;
        sm.vote = voteFor;
        const term = Math.max(sm.raftLog.lastTerm(), logTerm);
        sm.term = term;
        sm.step(msg({ type: msgType, term, from: 2, index, logTerm }));
        const msgs = readMessages(sm);
        assert.equal(msgs.length, 1, `${msgType} #${i}`);
        assert.equal(msgs[0]!.type, msgType === 'MsgVote' ? 'MsgVoteResp' : 'MsgPreVoteResp', `#${i}`);
        assert.equal(msgs[0]!.reject, wreject, `${msgType} #${i}`);
      });
    }
  });

  it('allows only the transitions of the state diagram (TestStateTransition)', () => {
    const tests: Array<[StateType, StateType, boolean, number, NodeId]> = [
      ['StateFollower', 'StateFollower', true, 1, 0],
      ['StateFollower', 'StatePreCandidate', true, 0, 0],
      ['StateFollower', 'StateCandidate', true, 1, 0],
      ['StateFollower', 'StateLeader', false, 0, 0],
      ['StatePreCandidate', 'StateFollower', true, 0, 0],
      ['StatePreCandidate', 'StatePreCandidate', true, 0, 0],
      ['StatePreCandidate', 'StateCandidate', true, 1, 0],
      ['StatePreCandidate', 'StateLeader', true, 0, 1],
      ['StateCandidate', 'StateFollower', true, 0, 0],
      ['StateCandidate', 'StatePreCandidate', true, 0, 0],
      ['StateCandidate', 'StateCandidate', true, 1, 0],
      ['StateCandidate', 'StateLeader', true, 0, 1],
      ['StateLeader', 'StateFollower', true, 1, 0],
      ['StateLeader', 'StatePreCandidate', false, 0, 0],
      ['StateLeader', 'StateCandidate', false, 1, 0],
      ['StateLeader', 'StateLeader', true, 0, 1],
    ];
    tests.forEach(([from, to, wallow, wterm, wlead], i) => {
      const sm = newTestRaft(1, 10, 1, newTestMemoryStorage([1]));
      sm.state = from;
      const go = (): void => {
        if (to === 'StateFollower') sm.becomeFollower(wterm, wlead);
        if (to === 'StatePreCandidate') sm.becomePreCandidate();
        if (to === 'StateCandidate') sm.becomeCandidate();
        if (to === 'StateLeader') sm.becomeLeader();
      };
      if (!wallow) {
        assert.throws(go, /invalid transition/, `#${i}`);
        return;
      }
      go();
      assert.equal(sm.term, wterm, `#${i}`);
      assert.equal(sm.lead, wlead, `#${i}`);
    });
  });

  it('every role steps down on a message of a newer term (TestAllServerStepdown)', () => {
    const tests: Array<[StateType, StateType, number, number]> = [
      ['StateFollower', 'StateFollower', 3, 0],
      ['StatePreCandidate', 'StateFollower', 3, 0],
      ['StateCandidate', 'StateFollower', 3, 0],
      ['StateLeader', 'StateFollower', 3, 1],
    ];
    tests.forEach(([state, wstate, wterm, windex], i) => {
      const sm = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2, 3]));
      if (state === 'StateFollower') sm.becomeFollower(1, 0);
      if (state === 'StatePreCandidate') sm.becomePreCandidate();
      if (state === 'StateCandidate') sm.becomeCandidate();
      if (state === 'StateLeader') {
        sm.becomeCandidate();
        sm.becomeLeader();
      }
      for (const [j, type] of (['MsgVote', 'MsgApp'] as MessageType[]).entries()) {
        sm.step(msg({ from: 2, type, term: 3, logTerm: 3 }));
        assert.equal(sm.state, wstate, `#${i}.${j}`);
        assert.equal(sm.term, wterm, `#${i}.${j}`);
        assert.equal(sm.raftLog.lastIndex(), windex, `#${i}.${j}`);
        assert.equal(sm.raftLog.allEntries().length, windex, `#${i}.${j}`);
        assert.equal(sm.lead, type === 'MsgVote' ? 0 : 2, `#${i}.${j}`);
      }
    });
  });

  // testCandidateResetTerm: a candidate isolated at a higher term adopts the leader's term when it
  // hears from it again.
  for (const mt of ['MsgHeartbeat', 'MsgApp'] as MessageType[]) {
    it(`a candidate follows a leader of its term on ${mt} (TestCandidateResetTerm${mt.slice(3)})`, () => {
      const [a, b, c] = threeRafts();
      const nt = new Network(undefined, a, b, c);
      nt.send(hup(1));
      assert.equal(a.state, 'StateLeader');
      assert.equal(b.state, 'StateFollower');
      assert.equal(c.state, 'StateFollower');
      nt.isolate(3);
      nt.send(hup(2));
      nt.send(hup(1));
      assert.equal(a.state, 'StateLeader');
      assert.equal(b.state, 'StateFollower');
      c.resetRandomizedElectionTimeout();
      for (let i = 0; i < c.randomizedElectionTimeout; i++) c.tick();
      advanceMessagesAfterAppend(c);
      assert.equal(c.state, 'StateCandidate');
      nt.recover();
      nt.send(msg({ from: 1, to: 3, term: a.term, type: mt }));
      assert.equal(c.state, 'StateFollower');
      assert.equal(c.term, a.term);
    });
  }

  it('the election timeout fires with the expected probability (TestPastElectionTimeout)', () => {
    const tests: Array<[number, number, boolean]> = [
      [5, 0, false],
      [10, 0.1, true],
      [13, 0.4, true],
      [15, 0.6, true],
      [18, 0.9, true],
      [20, 1, false],
    ];
    tests.forEach(([elapse, wprobability, round], i) => {
      const sm = newTestRaft(1, 10, 1, newTestMemoryStorage([1]));
      sm.electionElapsed = elapse;
      let c = 0;
      for (let j = 0; j < 10000; j++) {
        sm.resetRandomizedElectionTimeout();
        if (sm.pastElectionTimeout()) c++;
      }
      let got = c / 10000;
      if (round) got = Math.floor(got * 10 + 0.5) / 10;
      assert.equal(got, wprobability, `#${i}`);
    });
  });
});

describe('raft check-quorum and pre-vote (etcd-io/raft raft_test.go)', () => {
  it('a leader that hears from a quorum stays leader (TestLeaderStepdownWhenQuorumActive)', () => {
    const sm = newTestRaft(1, 5, 1, newTestMemoryStorage([1, 2, 3]));
    sm.checkQuorum = true;
    sm.becomeCandidate();
    sm.becomeLeader();
    for (let i = 0; i < sm.electionTimeout + 1; i++) {
      sm.step(msg({ from: 2, type: 'MsgHeartbeatResp', term: sm.term }));
      sm.tick();
    }
    assert.equal(sm.state, 'StateLeader');
  });

  it('a leader that loses the quorum steps down (TestLeaderStepdownWhenQuorumLost)', () => {
    const sm = newTestRaft(1, 5, 1, newTestMemoryStorage([1, 2, 3]));
    sm.checkQuorum = true;
    sm.becomeCandidate();
    sm.becomeLeader();
    for (let i = 0; i < sm.electionTimeout + 1; i++) sm.tick();
    assert.equal(sm.state, 'StateFollower');
  });

  it('a candidate within a leader\'s lease is ignored until the lease ends (TestLeaderSupersedingWithCheckQuorum)', () => {
    const [a, b, c] = threeRafts((r) => (r.checkQuorum = true));
    const nt = new Network(undefined, a, b, c);
    b.randomizedElectionTimeout = b.electionTimeout + 1;
    for (let i = 0; i < b.electionTimeout; i++) b.tick();
    nt.send(hup(1));
    assert.equal(a.state, 'StateLeader');
    assert.equal(c.state, 'StateFollower');
    nt.send(hup(3));
    // b heard from the leader within its election timeout: it ignores c's request.
    assert.equal(c.state, 'StateCandidate');
    for (let i = 0; i < b.electionTimeout; i++) b.tick();
    nt.send(hup(3));
    assert.equal(c.state, 'StateLeader');
  });

  it('a new election succeeds once the leases expire (TestLeaderElectionWithCheckQuorum)', () => {
    const [a, b, c] = threeRafts((r) => (r.checkQuorum = true));
    const nt = new Network(undefined, a, b, c);
    a.randomizedElectionTimeout = a.electionTimeout + 1;
    b.randomizedElectionTimeout = b.electionTimeout + 2;
    nt.send(hup(1));
    assert.equal(a.state, 'StateLeader');
    assert.equal(c.state, 'StateFollower');
    a.randomizedElectionTimeout = a.electionTimeout + 1;
    b.randomizedElectionTimeout = b.electionTimeout + 2;
    for (let i = 0; i < a.electionTimeout; i++) a.tick();
    for (let i = 0; i < b.electionTimeout; i++) b.tick();
    nt.send(hup(3));
    assert.equal(a.state, 'StateFollower');
    assert.equal(c.state, 'StateLeader');
  });

  it('a candidate stuck at a higher term is freed by the leader stepping down (TestFreeStuckCandidateWithCheckQuorum)', () => {
    const [a, b, c] = threeRafts((r) => (r.checkQuorum = true));
    const nt = new Network(undefined, a, b, c);
    b.randomizedElectionTimeout = b.electionTimeout + 1;
    for (let i = 0; i < b.electionTimeout; i++) b.tick();
    nt.send(hup(1));
    nt.isolate(1);
    nt.send(hup(3));
    assert.equal(b.state, 'StateFollower');
    assert.equal(c.state, 'StateCandidate');
    assert.equal(c.term, b.term + 1);
    nt.send(hup(3));
    assert.equal(b.state, 'StateFollower');
    assert.equal(c.state, 'StateCandidate');
    assert.equal(c.term, b.term + 2);
    nt.recover();
    nt.send(msg({ from: 1, to: 3, type: 'MsgHeartbeat', term: a.term }));
    // c answered the stale heartbeat with its higher term: the old leader steps down.
    assert.equal(a.state, 'StateFollower');
    assert.equal(c.term, a.term);
    nt.send(hup(3));
    assert.equal(c.state, 'StateLeader');
  });

  it('without pre-vote a rejoining follower at a higher term disrupts the leader (TestDisruptiveFollower)', () => {
    const [n1, n2, n3] = threeRafts((r) => (r.checkQuorum = true));
    for (const r of [n1, n2, n3]) r.becomeFollower(1, 0);
    const nt = new Network(undefined, n1, n2, n3);
    nt.send(hup(1));
    assert.equal(n1.state, 'StateLeader');
    assert.equal(n2.state, 'StateFollower');
    assert.equal(n3.state, 'StateFollower');
    n3.randomizedElectionTimeout = n3.electionTimeout + 2;
    for (let i = 0; i < n3.randomizedElectionTimeout - 1; i++) n3.tick();
    // The tick that starts n3's election: its vote requests are not delivered.
    n3.tick();
    assert.equal(n1.state, 'StateLeader');
    assert.equal(n2.state, 'StateFollower');
    assert.equal(n3.state, 'StateCandidate');
    assert.deepEqual([n1.term, n2.term, n3.term], [2, 2, 3]);
    nt.send(msg({ from: 1, to: 3, term: n1.term, type: 'MsgHeartbeat' }));
    assert.equal(n1.state, 'StateFollower');
    assert.equal(n2.state, 'StateFollower');
    assert.equal(n3.state, 'StateCandidate');
    assert.deepEqual([n1.term, n2.term, n3.term], [3, 2, 3]);
  });

  it('with pre-vote a rejoining follower does not disrupt the leader (TestDisruptiveFollowerPreVote)', () => {
    const [n1, n2, n3] = threeRafts((r) => (r.checkQuorum = true));
    for (const r of [n1, n2, n3]) r.becomeFollower(1, 0);
    const nt = new Network(undefined, n1, n2, n3);
    nt.send(hup(1));
    assert.equal(n1.state, 'StateLeader');
    nt.isolate(3);
    for (let i = 0; i < 3; i++) nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop('somedata')] }));
    for (const r of [n1, n2, n3]) r.preVote = true;
    nt.recover();
    nt.send(hup(3));
    assert.equal(n1.state, 'StateLeader');
    assert.equal(n2.state, 'StateFollower');
    assert.equal(n3.state, 'StatePreCandidate');
    assert.deepEqual([n1.term, n2.term, n3.term], [2, 2, 2]);
    nt.send(msg({ from: 1, to: 3, term: n1.term, type: 'MsgHeartbeat' }));
    assert.equal(n1.state, 'StateLeader');
  });

  it('a node left behind at a smaller term can still complete an election (TestNodeWithSmallerTermCanCompleteElection)', () => {
    const [n1, n2, n3] = threeRafts();
    for (const r of [n1, n2, n3]) {
      r.becomeFollower(1, 0);
      r.preVote = true;
    }
    const nt = new Network(undefined, n1, n2, n3);
    nt.cut(1, 3);
    nt.cut(2, 3);
    nt.send(hup(1));
    assert.equal(n1.state, 'StateLeader');
    assert.equal(n2.state, 'StateFollower');
    nt.send(hup(3));
    assert.equal(n3.state, 'StatePreCandidate');
    nt.send(hup(2));
    assert.deepEqual([n1.term, n2.term, n3.term], [3, 3, 1]);
    assert.equal(n1.state, 'StateFollower');
    assert.equal(n2.state, 'StateLeader');
    assert.equal(n3.state, 'StatePreCandidate');
    // Bring 3 back and cut 2 off: 1 or 3 must be able to win.
    nt.recover();
    nt.cut(2, 1);
    nt.cut(2, 3);
    nt.send(hup(3));
    nt.send(hup(1));
    // (strictEqual narrowed the states above; read them afresh.)
    assert.ok([n1, n3].some((r) => stateOf(r) === 'StateLeader'));
  });

  it('pre-vote survives a split vote (TestPreVoteWithSplitVote)', () => {
    const [n1, n2, n3] = threeRafts();
    for (const r of [n1, n2, n3]) {
      r.becomeFollower(1, 0);
      r.preVote = true;
    }
    const nt = new Network(undefined, n1, n2, n3);
    nt.send(hup(1));
    nt.isolate(1);
    nt.send(hup(2), hup(3));
    assert.deepEqual([n2.term, n3.term], [3, 3]);
    assert.equal(n2.state, 'StateCandidate');
    assert.equal(n3.state, 'StateCandidate');
    nt.send(hup(2));
    assert.deepEqual([n2.term, n3.term], [4, 4]);
    assert.equal(n2.state, 'StateLeader');
    assert.equal(n3.state, 'StateFollower');
  });

  it('pre-vote with check-quorum elects a new leader when the old one is isolated (TestPreVoteWithCheckQuorum)', () => {
    const [n1, n2, n3] = threeRafts();
    for (const r of [n1, n2, n3]) {
      r.becomeFollower(1, 0);
      r.preVote = true;
      r.checkQuorum = true;
    }
    const nt = new Network(undefined, n1, n2, n3);
    nt.send(hup(1));
    nt.isolate(1);
    assert.equal(n1.state, 'StateLeader');
    assert.equal(n2.state, 'StateFollower');
    assert.equal(n3.state, 'StateFollower');
    nt.send(hup(3));
    nt.send(hup(2));
    assert.ok(stateOf(n2) === 'StateLeader' || stateOf(n3) === 'StateFollower');
  });
});

describe('raft leader transfer (etcd-io/raft raft_test.go)', () => {
  const elected = (): Network => {
    const nt = new Network(undefined, undefined, undefined, undefined);
    nt.send(hup(1));
    return nt;
  };

  it('to an up-to-date node, and back (TestLeaderTransferToUpToDateNode)', () => {
    const nt = elected();
    const lead = nt.raft(1);
    assert.equal(lead.lead, 1);
    nt.send(msg({ from: 2, to: 1, type: 'MsgTransferLeader' }));
    checkLeaderTransferState(lead, 'StateFollower', 2);
    nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
    nt.send(msg({ from: 1, to: 2, type: 'MsgTransferLeader' }));
    checkLeaderTransferState(lead, 'StateLeader', 1);
  });

  it('asked through a follower (TestLeaderTransferToUpToDateNodeFromFollower)', () => {
    const nt = elected();
    const lead = nt.raft(1);
    nt.send(msg({ from: 2, to: 2, type: 'MsgTransferLeader' }));
    checkLeaderTransferState(lead, 'StateFollower', 2);
    nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
    nt.send(msg({ from: 1, to: 1, type: 'MsgTransferLeader' }));
    checkLeaderTransferState(lead, 'StateLeader', 1);
  });

  it('with check-quorum, the transfer overrides the followers\' leases (TestLeaderTransferWithCheckQuorum)', () => {
    const nt = new Network(undefined, undefined, undefined, undefined);
    for (let i = 1; i < 4; i++) {
      const r = nt.raft(i);
      r.checkQuorum = true;
      r.randomizedElectionTimeout = r.electionTimeout + i;
    }
    const f = nt.raft(2);
    for (let i = 0; i < f.electionTimeout; i++) f.tick();
    nt.send(hup(1));
    const lead = nt.raft(1);
    assert.equal(lead.state, 'StateLeader');
    nt.send(msg({ from: 2, to: 1, type: 'MsgTransferLeader' }));
    checkLeaderTransferState(lead, 'StateFollower', 2);
    nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
    nt.send(msg({ from: 1, to: 2, type: 'MsgTransferLeader' }));
    checkLeaderTransferState(lead, 'StateLeader', 1);
  });

  it('to a slow follower: it is caught up first (TestLeaderTransferToSlowFollower)', () => {
    const nt = elected();
    nt.isolate(3);
    nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
    nt.recover();
    const lead = nt.raft(1);
    assert.equal(lead.trk.progress.get(3)!.match, 1);
    nt.send(msg({ from: 3, to: 1, type: 'MsgTransferLeader' }));
    checkLeaderTransferState(lead, 'StateFollower', 3);
  });

  it('to a follower that needs a snapshot first (TestLeaderTransferAfterSnapshot)', () => {
    const nt = elected();
    nt.isolate(3);
    nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
    const lead = nt.raft(1);
    nextEnts(lead, nt.storage.get(1)!);
    nt.storage.get(1)!.createSnapshot(lead.raftLog.applied, lead.trk.voters);
    nt.storage.get(1)!.compact(lead.raftLog.applied);
    nt.recover();
    assert.equal(lead.trk.progress.get(3)!.match, 1);
    let filtered: ReturnType<typeof msg> | undefined;
    // Hold back the follower's answer to the snapshot until it has applied it.
    nt.msgHook = (m) => {
      if (m.type !== 'MsgAppResp' || m.from !== 3 || m.reject) return true;
      filtered = m;
      return false;
    };
    nt.send(msg({ from: 3, to: 1, type: 'MsgTransferLeader' }));
    assert.equal(lead.state, 'StateLeader');
    assert.ok(filtered);
    const follower = nt.raft(3);
    const snap = follower.raftLog.nextUnstableSnapshot()!;
    nt.storage.get(3)!.applySnapshot(snap);
    follower.appliedSnap(snap);
    nt.msgHook = undefined;
    nt.send(filtered);
    checkLeaderTransferState(lead, 'StateFollower', 3);
  });

  it('to itself or a stranger does nothing (TestLeaderTransferToSelf, TestLeaderTransferToNonExistingNode)', () => {
    for (const from of [1, 4]) {
      const nt = elected();
      nt.send(msg({ from, to: 1, type: 'MsgTransferLeader' }));
      checkLeaderTransferState(nt.raft(1), 'StateLeader', 1);
    }
  });

  it('gives up after an election timeout (TestLeaderTransferTimeout)', () => {
    const nt = elected();
    nt.isolate(3);
    const lead = nt.raft(1);
    nt.send(msg({ from: 3, to: 1, type: 'MsgTransferLeader' }));
    assert.equal(lead.leadTransferee, 3);
    for (let i = 0; i < lead.heartbeatTimeout; i++) lead.tick();
    assert.equal(lead.leadTransferee, 3);
    for (let i = 0; i < lead.electionTimeout - lead.heartbeatTimeout; i++) lead.tick();
    checkLeaderTransferState(lead, 'StateLeader', 1);
  });

  it('refuses proposals while leadership moves (TestLeaderTransferIgnoreProposal)', () => {
    const s = newTestMemoryStorage([1, 2, 3]);
    const r = newTestRaft(1, 10, 1, s);
    const nt = new Network(undefined, r, undefined, undefined);
    nt.send(hup(1));
    nt.isolate(3);
    const lead = nt.raft(1);
    nextEnts(r, s);
    nt.send(msg({ from: 3, to: 1, type: 'MsgTransferLeader' }));
    assert.equal(lead.leadTransferee, 3);
    nt.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
    assert.equal(lead.step(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] })), PROPOSAL_DROPPED);
    assert.equal(lead.trk.progress.get(1)!.match, 1);
  });

  it('is abandoned when another node wins a higher term (TestLeaderTransferReceiveHigherTermVote)', () => {
    const nt = elected();
    nt.isolate(3);
    const lead = nt.raft(1);
    nt.send(msg({ from: 3, to: 1, type: 'MsgTransferLeader' }));
    assert.equal(lead.leadTransferee, 3);
    nt.send(msg({ from: 2, to: 2, type: 'MsgHup', index: 1, term: 2 }));
    checkLeaderTransferState(lead, 'StateFollower', 2);
  });

  it('back to the leader itself cancels it (TestLeaderTransferBack)', () => {
    const nt = elected();
    nt.isolate(3);
    const lead = nt.raft(1);
    nt.send(msg({ from: 3, to: 1, type: 'MsgTransferLeader' }));
    assert.equal(lead.leadTransferee, 3);
    nt.send(msg({ from: 1, to: 1, type: 'MsgTransferLeader' }));
    checkLeaderTransferState(lead, 'StateLeader', 1);
  });

  it('a second transfer to another node replaces the first (TestLeaderTransferSecondTransferToAnotherNode)', () => {
    const nt = elected();
    nt.isolate(3);
    const lead = nt.raft(1);
    nt.send(msg({ from: 3, to: 1, type: 'MsgTransferLeader' }));
    assert.equal(lead.leadTransferee, 3);
    nt.send(msg({ from: 2, to: 1, type: 'MsgTransferLeader' }));
    checkLeaderTransferState(lead, 'StateFollower', 2);
  });

  it('a second transfer to the same node does not extend the timeout (TestLeaderTransferSecondTransferToSameNode)', () => {
    const nt = elected();
    nt.isolate(3);
    const lead = nt.raft(1);
    nt.send(msg({ from: 3, to: 1, type: 'MsgTransferLeader' }));
    assert.equal(lead.leadTransferee, 3);
    for (let i = 0; i < lead.heartbeatTimeout; i++) lead.tick();
    nt.send(msg({ from: 3, to: 1, type: 'MsgTransferLeader' }));
    for (let i = 0; i < lead.electionTimeout - lead.heartbeatTimeout; i++) lead.tick();
    checkLeaderTransferState(lead, 'StateLeader', 1);
  });
});

