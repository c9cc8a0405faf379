/**
 * The Raft paper's rules (§5: election, log matching, commitment, leader completeness), ported
 * from etcd-io/raft's raft_paper_test.go: each test names the upstream test it follows and the
 * section it checks. Only the harness differs (messages as plain objects, tables as arrays).
 */
import { strict as assert } from 'node:assert';
import { Raft } from '../../../../src/engine/store/raft/raft';
import type { StateType } from '../../../../src/engine/store/raft/types';
import {
  BLACK_HOLE,
  Network,
  advanceMessagesAfterAppend,
  ent,
  entries,
  idsBySize,
  ltoa,
  msg,
  mustAppendEntry,
  newTestMemoryStorage,
  newTestRaft,
  prop,
  readMessages,
  sortMessages,
} from './support';
import type { Message } from '../../../../src/engine/store/raft/types';
import type { MemoryStorage } from '../../../../src/engine/store/raft/storage';

/** commitNoopEntry: the new leader's empty entry acknowledged by everyone, applied and stable. */
function commitNoopEntry(r: Raft, s: MemoryStorage): void {
  assert.equal(r.state, 'StateLeader');
  r.bcastAppend();
  for (const m of readMessages(r)) {
    assert.ok(m.type === 'MsgApp' && m.entries.length === 1 && m.entries[0]!.data === undefined, 'not a message to append noop entry');
    r.step(acceptAndReply(m));
  }
  readMessages(r);
  s.append(r.raftLog.nextUnstableEnts());
  r.raftLog.appliedTo(r.raftLog.committed, 0);
  r.raftLog.stableTo(r.raftLog.lastIndex(), r.raftLog.lastTerm());
}

function acceptAndReply(m: Message): Message {
  assert.equal(m.type, 'MsgApp');
  return msg({ from: m.to, to: m.from, term: m.term, type: 'MsgAppResp', index: m.index + m.entries.length });
}

describe('raft paper §5 (etcd-io/raft raft_paper_test.go)', () => {
  // testUpdateTermFromMessage (§5.1): a node that sees a larger term adopts it and, if it was
  // candidate or leader, reverts to follower.
  for (const state of ['StateFollower', 'StateCandidate', 'StateLeader'] as StateType[]) {
    it(`${state}: updates its term from a message (Test${state.slice(5)}UpdateTermFromMessage)`, () => {
      const r = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2, 3]));
      if (state === 'StateFollower') r.becomeFollower(1, 2);
      if (state === 'StateCandidate') r.becomeCandidate();
      if (state === 'StateLeader') {
        r.becomeCandidate();
        r.becomeLeader();
      }
      r.step(msg({ type: 'MsgApp', term: 2 }));
      assert.equal(r.term, 2);
      assert.equal(r.state, 'StateFollower');
    });
  }

  it('ignores a request with a stale term (TestRejectStaleTermMessage, §5.1)', () => {
    let called = false;
    const r = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2, 3]));
    r.stepFn = () => {
      called = true;
      return undefined;
    };
    r.loadState({ term: 2, vote: 0, commit: 0 });
    r.step(msg({ type: 'MsgApp', term: r.term - 1 }));
    assert.equal(called, false);
  });

  it('starts as a follower (TestStartAsFollower, §5.2)', () => {
    assert.equal(newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2, 3])).state, 'StateFollower');
  });

  it('a leader heartbeats every follower on its heartbeat tick (TestLeaderBcastBeat, §5.2)', () => {
    const hi = 1;
    const r = newTestRaft(1, 10, hi, newTestMemoryStorage([1, 2, 3]));
    r.becomeCandidate();
    r.becomeLeader();
    for (let i = 0; i < 10; i++) mustAppendEntry(r, ent(i + 1, 0));
    for (let i = 0; i < hi; i++) r.tick();
    assert.deepEqual(sortMessages(readMessages(r)), [
      msg({ from: 1, to: 2, term: 1, type: 'MsgHeartbeat', commit: 0 }),
      msg({ from: 1, to: 3, term: 1, type: 'MsgHeartbeat', commit: 0 }),
    ]);
  });

  // testNonleaderStartElection (§5.2): without hearing from a leader for an election timeout, a
  // follower (or a candidate that did not win) starts an election for the next term.
  for (const state of ['StateFollower', 'StateCandidate'] as StateType[]) {
    it(`${state}: starts an election after the timeout (Test${state === 'StateFollower' ? 'FollowerStartElection' : 'CandidateStartNewElection'})`, () => {
      const et = 10;
      const r = newTestRaft(1, et, 1, newTestMemoryStorage([1, 2, 3]));
      if (state === 'StateFollower') r.becomeFollower(1, 2);
      else r.becomeCandidate();
      for (let i = 1; i < 2 * et; i++) r.tick();
      advanceMessagesAfterAppend(r);
      assert.equal(r.term, 2);
      assert.equal(r.state, 'StateCandidate');
      assert.equal(r.trk.votes.get(r.id), true);
      assert.deepEqual(sortMessages(readMessages(r)), [
        msg({ from: 1, to: 2, term: 2, type: 'MsgVote', index: 0, logTerm: 0 }),
        msg({ from: 1, to: 3, term: 2, type: 'MsgVote', index: 0, logTerm: 0 }),
      ]);
    });
  }

  it('decides an election in one round of votes (TestLeaderElectionInOneRoundRPC, §5.2)', () => {
    const tests: Array<[number, Record<number, boolean>, StateType]> = [
      // A majority of votes wins.
      [1, {}, 'StateLeader'],
      [3, { 2: true, 3: true }, 'StateLeader'],
      [3, { 2: true }, 'StateLeader'],
      [5, { 2: true, 3: true, 4: true, 5: true }, 'StateLeader'],
      [5, { 2: true, 3: true, 4: true }, 'StateLeader'],
      [5, { 2: true, 3: true }, 'StateLeader'],
      // A majority of denials returns to follower.
      [3, { 2: false, 3: false }, 'StateFollower'],
      [5, { 2: false, 3: false, 4: false, 5: false }, 'StateFollower'],
      [5, { 2: true, 3: false, 4: false, 5: false }, 'StateFollower'],
      // Neither: still a candidate.
      [3, {}, 'StateCandidate'],
      [5, { 2: true }, 'StateCandidate'],
      [5, { 2: false, 3: false }, 'StateCandidate'],
      [5, {}, 'StateCandidate'],
    ];
    tests.forEach(([size, votes, state], i) => {
      const r = newTestRaft(1, 10, 1, newTestMemoryStorage(idsBySize(size)));
      r.step(msg({ from: 1, to: 1, type: 'MsgHup' }));
      advanceMessagesAfterAppend(r);
      for (const [id, vote] of Object.entries(votes)) r.step(msg({ from: Number(id), to: 1, term: r.term, type: 'MsgVoteResp', reject: !vote }));
      assert.equal(r.state, state, `#${i}`);
      assert.equal(r.term, 1, `#${i}`);
    });
  });

  it('votes for at most one candidate a term, first come first served (TestFollowerVote, §5.2)', () => {
    const tests: Array<[number, number, boolean]> = [
      [0, 2, false],
      [0, 3, false],
      [2, 2, false],
      [3, 3, false],
      [2, 3, true],
      [3, 2, true],
    ];
    tests.forEach(([vote, nvote, wreject], i) => {
      const r = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2, 3]));
      r.loadState({ term: 1, vote, commit: 0 });
      r.step(msg({ from: nvote, to: 1, term: 1, type: 'MsgVote' }));
      assert.deepEqual(r.msgsAfterAppend, [msg({ from: 1, to: nvote, term: 1, type: 'MsgVoteResp', reject: wreject })], `#${i}`);
    });
  });

  it('a candidate that hears from a legitimate leader steps down (TestCandidateFallback, §5.2)', () => {
    for (const [i, m] of [msg({ from: 2, to: 1, term: 1, type: 'MsgApp' }), msg({ from: 2, to: 1, term: 2, type: 'MsgApp' })].entries()) {
      const r = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2, 3]));
      r.step(msg({ from: 1, to: 1, type: 'MsgHup' }));
      assert.equal(r.state, 'StateCandidate', `#${i}`);
      r.step(m);
      assert.equal(r.state, 'StateFollower', `#${i}`);
      assert.equal(r.term, m.term, `#${i}`);
    }
  });

  // testNonleaderElectionTimeoutRandomized (§5.2): timeouts cover [et, 2et).
  for (const state of ['StateFollower', 'StateCandidate'] as StateType[]) {
    it(`${state}: election timeouts are randomized (Test${state.slice(5)}ElectionTimeoutRandomized)`, () => {
      const et = 10;
      const r = newTestRaft(1, et, 1, newTestMemoryStorage([1, 2, 3]));
      const timeouts = new Set<number>();
      for (let round = 0; round < 50 * et; round++) {
        if (state === 'StateFollower') r.becomeFollower(r.term + 1, 2);
        else r.becomeCandidate();
        let time = 0;
        while (readMessages(r).length === 0) {
          r.tick();
          time++;
        }
        timeouts.add(time);
      }
      for (let d = et; d < 2 * et; d++) assert.ok(timeouts.has(d), `timeout in ${d} ticks should happen`);
    });
  }

  // testNonleadersElectionTimeoutNonconflict (§5.2): mostly only one node times out at a time.
  for (const state of ['StateFollower', 'StateCandidate'] as StateType[]) {
    it(`${state}: election timeouts rarely conflict (Test${state === 'StateFollower' ? 'Followers' : 'Candidates'}ElectionTimeoutNonconflict)`, () => {
      const et = 10;
      const ids = idsBySize(5);
      const rs = ids.map((id) => newTestRaft(id, et, 1, newTestMemoryStorage(ids)));
      let conflicts = 0;
      for (let round = 0; round < 1000; round++) {
        for (const r of rs) {
          if (state === 'StateFollower') r.becomeFollower(r.term + 1, 0);
          else r.becomeCandidate();
        }
        let timeoutNum = 0;
        while (timeoutNum === 0) {
          for (const r of rs) {
            r.tick();
            if (readMessages(r).length > 0) timeoutNum++;
          }
        }
        if (timeoutNum > 1) conflicts++;
      }
      assert.ok(conflicts / 1000 <= 0.3, `conflict rate ${conflicts / 1000}`);
    });
  }

  it('a leader appends a proposal and replicates it with the preceding entry (TestLeaderStartReplication, §5.3)', () => {
    const s = newTestMemoryStorage([1, 2, 3]);
    const r = newTestRaft(1, 10, 1, s);
    r.becomeCandidate();
    r.becomeLeader();
    commitNoopEntry(r, s);
    const li = r.raftLog.lastIndex();
    r.step(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop('some data')] }));
    assert.equal(r.raftLog.lastIndex(), li + 1);
    assert.equal(r.raftLog.committed, li);
    const wents = [ent(li + 1, 1, 'some data')];
    assert.deepEqual(sortMessages(readMessages(r)), [
      msg({ from: 1, to: 2, term: 1, type: 'MsgApp', index: li, logTerm: 1, entries: wents, commit: li }),
      msg({ from: 1, to: 3, term: 1, type: 'MsgApp', index: li, logTerm: 1, entries: wents, commit: li }),
    ]);
    assert.deepEqual(r.raftLog.nextUnstableEnts(), [ent(li + 1, 1, 'some data')]);
  });

  it('a replicated entry is committed and handed out, and followers learn the commit (TestLeaderCommitEntry, §5.3)', () => {
    const s = newTestMemoryStorage([1, 2, 3]);
    const r = newTestRaft(1, 10, 1, s);
    r.becomeCandidate();
    r.becomeLeader();
    commitNoopEntry(r, s);
    const li = r.raftLog.lastIndex();
    r.step(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop('some data')] }));
    for (const m of readMessages(r)) r.step(acceptAndReply(m));
    assert.equal(r.raftLog.committed, li + 1);
    assert.deepEqual(r.raftLog.nextCommittedEnts(true), [ent(li + 1, 1, 'some data')]);
    sortMessages(readMessages(r)).forEach((m, i) => {
      assert.equal(m.to, i + 2);
      assert.equal(m.type, 'MsgApp');
      assert.equal(m.commit, li + 1);
    });
  });

  it('an entry commits once a majority holds it (TestLeaderAcknowledgeCommit, §5.3)', () => {
    const tests: Array<[number, Record<number, boolean>, boolean]> = [
      [1, {}, true],
      [3, {}, false],
      [3, { 2: true }, true],
      [3, { 2: true, 3: true }, true],
      [5, {}, false],
      [5, { 2: true }, false],
      [5, { 2: true, 3: true }, true],
      [5, { 2: true, 3: true, 4: true }, true],
      [5, { 2: true, 3: true, 4: true, 5: true }, true],
    ];
    tests.forEach(([size, acceptors, wack], i) => {
      const s = newTestMemoryStorage(idsBySize(size));
      const r = newTestRaft(1, 10, 1, s);
      r.becomeCandidate();
      r.becomeLeader();
      commitNoopEntry(r, s);
      const li = r.raftLog.lastIndex();
      r.step(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop('some data')] }));
      advanceMessagesAfterAppend(r);
      for (const m of r.msgs) if (acceptors[m.to]) r.step(acceptAndReply(m));
      assert.equal(r.raftLog.committed > li, wack, `#${i}`);
    });
  });

  it('committing an entry commits the ones before it, other leaders\' too (TestLeaderCommitPrecedingEntries, §5.3)', () => {
    const tests = [[], [ent(1, 2)], [ent(1, 1), ent(2, 2)], [ent(1, 1)]];
    tests.forEach((tt, i) => {
      const storage = newTestMemoryStorage([1, 2, 3]);
      storage.append(tt);
      const r = newTestRaft(1, 10, 1, storage);
      r.loadState({ term: 2, vote: 0, commit: 0 });
      r.becomeCandidate();
      r.becomeLeader();
      r.step(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop('some data')] }));
      for (const m of readMessages(r)) r.step(acceptAndReply(m));
      const li = tt.length;
      assert.deepEqual(r.raftLog.nextCommittedEnts(true), [...tt, ent(li + 1, 3), ent(li + 2, 3, 'some data')], `#${i}`);
    });
  });

  it('a follower applies what it learns is committed, in order (TestFollowerCommitEntry, §5.3)', () => {
    const tests: Array<[ReturnType<typeof ent>[], number]> = [
      [[ent(1, 1, 'some data')], 1],
      [[ent(1, 1, 'some data'), ent(2, 1, 'some data2')], 2],
      [[ent(1, 1, 'some data2'), ent(2, 1, 'some data')], 2],
      [[ent(1, 1, 'some data'), ent(2, 1, 'some data2')], 1],
    ];
    tests.forEach(([ents, commit], i) => {
      const r = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2, 3]));
      r.becomeFollower(1, 2);
      r.step(msg({ from: 2, to: 1, type: 'MsgApp', term: 1, entries: ents, commit }));
      assert.equal(r.raftLog.committed, commit, `#${i}`);
      assert.deepEqual(r.raftLog.nextCommittedEnts(true), ents.slice(0, commit), `#${i}`);
    });
  });

  it('a follower refuses entries that do not follow an entry it has (TestFollowerCheckMsgApp, §5.3)', () => {
    const ents = [ent(1, 1), ent(2, 2)];
    const tests: Array<[number, number, number, boolean, number, number]> = [
      // Matches committed entries.
      [0, 0, 1, false, 0, 0],
      [1, 1, 1, false, 0, 0],
      // Matches uncommitted entries.
      [2, 2, 2, false, 0, 0],
      // Differs from an existing entry.
      [1, 2, 2, true, 1, 1],
      // An entry that is not there.
      [3, 3, 3, true, 2, 2],
    ];
    tests.forEach(([term, index, windex, wreject, wrejectHint, wlogterm], i) => {
      const storage = newTestMemoryStorage([1, 2, 3]);
      storage.append(ents);
      const r = newTestRaft(1, 10, 1, storage);
      r.loadState({ term: 0, vote: 0, commit: 1 });
      r.becomeFollower(2, 2);
      r.step(msg({ from: 2, to: 1, type: 'MsgApp', term: 2, logTerm: term, index }));
      const expected = wreject
        ? msg({ from: 1, to: 2, type: 'MsgAppResp', term: 2, index: windex, reject: true, rejectHint: wrejectHint, logTerm: wlogterm })
        : msg({ from: 1, to: 2, type: 'MsgAppResp', term: 2, index: windex });
      assert.deepEqual(readMessages(r), [expected], `#${i}`);
    });
  });

  it('a follower replaces conflicting entries and appends new ones (TestFollowerAppendEntries, §5.3)', () => {
    const tests: Array<[number, number, ReturnType<typeof ent>[], ReturnType<typeof ent>[], ReturnType<typeof ent>[]]> = [
      [2, 2, entries(3, 3), entries(1, 1, 2, 3), entries(3, 3)],
      [1, 1, entries(2, 3, 4), entries(1, 1, 3, 4), entries(2, 3, 4)],
      [0, 0, entries(1, 1), entries(1, 1, 2), []],
      [0, 0, entries(1, 3), entries(1, 3), entries(1, 3)],
    ];
    tests.forEach(([index, term, ents, wents, wunstable], i) => {
      const storage = newTestMemoryStorage([1, 2, 3]);
      storage.append([ent(1, 1), ent(2, 2)]);
      const r = newTestRaft(1, 10, 1, storage);
      r.becomeFollower(2, 2);
      r.step(msg({ from: 2, to: 1, type: 'MsgApp', term: 2, logTerm: term, index, entries: ents }));
      assert.deepEqual(r.raftLog.allEntries(), wents, `#${i}`);
      assert.deepEqual(r.raftLog.nextUnstableEnts(), wunstable, `#${i}`);
    });
  });

  it('a leader brings any follower log in line with its own (TestLeaderSyncFollowerLog, §5.3, figure 7)', () => {
    const leaderEnts = entries(0, 0, 1, 1, 1, 4, 4, 5, 5, 6, 6, 6).slice(1);
    const term = 8;
    const followers = [
      entries(0, 0, 1, 1, 1, 4, 4, 5, 5, 6, 6),
      entries(0, 0, 1, 1, 1, 4, 4),
      entries(0, 0, 1, 1, 1, 4, 4, 5, 5, 6, 6, 6, 6),
      entries(0, 0, 1, 1, 1, 4, 4, 5, 5, 6, 6, 6, 7, 7),
      entries(0, 0, 1, 1, 1, 4, 4, 4, 4),
      entries(0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3),
    ].map((e) => e.slice(1));
    followers.forEach((tt, i) => {
      const leadStorage = newTestMemoryStorage([1, 2, 3]);
      leadStorage.append(leaderEnts);
      const lead = newTestRaft(1, 10, 1, leadStorage);
      lead.loadState({ commit: lead.raftLog.lastIndex(), term, vote: 0 });
      const followerStorage = newTestMemoryStorage([1, 2, 3]);
      followerStorage.append(tt);
      const follower = newTestRaft(2, 10, 1, followerStorage);
      follower.loadState({ term: term - 1, vote: 0, commit: 0 });
      // Three nodes: the follower may have a longer log, so the leader needs node 3's vote.
      const n = new Network(undefined, lead, follower, BLACK_HOLE);
      n.send(msg({ from: 1, to: 1, type: 'MsgHup' }));
      n.send(msg({ from: 3, to: 1, type: 'MsgVoteResp', term: term + 1 }));
      n.send(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
      assert.equal(ltoa(lead), ltoa(follower), `#${i}`);
    });
  });

  it('a vote request carries the candidate\'s last entry (TestVoteRequest, §5.4.1)', () => {
    const tests: Array<[ReturnType<typeof ent>[], number]> = [
      [entries(1, 1), 2],
      [entries(1, 1, 2), 3],
    ];
    tests.forEach(([ents, wterm], j) => {
      const r = newTestRaft(1, 10, 1, newTestMemoryStorage([1, 2, 3]));
      r.step(msg({ from: 2, to: 1, type: 'MsgApp', term: wterm - 1, logTerm: 0, index: 0, entries: ents }));
      readMessages(r);
      for (let i = 1; i < r.electionTimeout * 2; i++) r.tickElection();
      const msgs = sortMessages(readMessages(r));
      assert.equal(msgs.length, 2, `#${j}`);
      msgs.forEach((m, i) => {
        assert.equal(m.type, 'MsgVote', `#${j}.${i}`);
        assert.equal(m.to, i + 2, `#${j}.${i}`);
        assert.equal(m.term, wterm, `#${j}.${i}`);
        assert.equal(m.index, ents[ents.length - 1]!.index, `#${j}.${i}`);
        assert.equal(m.logTerm, ents[ents.length - 1]!.term, `#${j}.${i}`);
      });
    });
  });

  it('a voter denies a candidate whose log is less up to date (TestVoter, §5.4.1)', () => {
    const tests: Array<[ReturnType<typeof ent>[], number, number, boolean]> = [
      // Same last term.
      [entries(1, 1), 1, 1, false],
      [entries(1, 1), 1, 2, false],
      [entries(1, 1, 1), 1, 1, true],
      // The candidate's last term is higher.
      [entries(1, 1), 2, 1, false],
      [entries(1, 1), 2, 2, false],
      [[ent(1, 1), ent(2, 1)], 2, 1, false],
      // The voter's last term is higher.
      [entries(1, 2), 1, 1, true],
      [entries(1, 2), 1, 2, true],
      [entries(1, 2, 2), 1, 1, true],
      [entries(1, 1, 1), 1, 1, true],
    ];
    tests.forEach(([ents, logTerm, index, wreject], i) => {
      const storage = newTestMemoryStorage([1, 2]);
      storage.append(ents);
      const r = newTestRaft(1, 10, 1, storage);
      r.step(msg({ from: 2, to: 1, type: 'MsgVote', term: 3, logTerm, index }));
      const msgs = readMessages(r);
      assert.equal(msgs.length, 1, `#${i}`);
      assert.equal(msgs[0]!.type, 'MsgVoteResp', `#${i}`);
      assert.equal(msgs[0]!.reject, wreject, `#${i}`);
    });
  });

  it('only entries of the leader\'s own term commit by counting replicas (TestLeaderOnlyCommitsLogFromCurrentTerm, §5.4.2)', () => {
    const ents = [ent(1, 1), ent(2, 2)];
    const tests: Array<[number, number]> = [
      // Entries of earlier terms do not commit by counting.
      [1, 0],
      [2, 0],
      // An entry of the current term does, and everything before it with it.
      [3, 3],
    ];
    tests.forEach(([index, wcommit], i) => {
      const storage = newTestMemoryStorage([1, 2]);
      storage.append(ents);
      const r = newTestRaft(1, 10, 1, storage);
      r.loadState({ term: 2, vote: 0, commit: 0 });
      r.becomeCandidate();
      r.becomeLeader();
      readMessages(r);
      r.step(msg({ from: 1, to: 1, type: 'MsgProp', entries: [prop()] }));
      r.step(msg({ from: 2, to: 1, type: 'MsgAppResp', term: r.term, index }));
      advanceMessagesAfterAppend(r);
      assert.equal(r.raftLog.committed, wcommit, `#${i}`);
    });
  });
});
