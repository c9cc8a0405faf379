/**
 * The harness of etcd-io/raft's own tests (raft_test.go), so that its tables port as they are:
 * test rafts over MemoryStorage, readMessages/advanceMessagesAfterAppend, and a network that
 * delivers messages synchronously with drops, cuts, isolation and ignored types.
 */
import { Random } from '../../../../src/engine/random';
import { Raft, type RaftConfig } from '../../../../src/engine/store/raft/raft';
import { MemoryStorage } from '../../../../src/engine/store/raft/storage';
import { RaftLog } from '../../../../src/engine/store/raft/log';
import { ProgressTracker } from '../../../../src/engine/store/raft/tracker';
import { Progress } from '../../../../src/engine/store/raft/progress';
import { message, type Entry, type Message, type MessageType, type NodeId } from '../../../../src/engine/store/raft/types';

export const NO_LIMIT = Number.MAX_SAFE_INTEGER;

const random = new Random('raft-tests');
export const randomInt = (n: number): number => random.int(n);

export function newTestConfig(id: NodeId, election: number, heartbeat: number, storage: MemoryStorage): RaftConfig {
  return { id, electionTick: election, heartbeatTick: heartbeat, storage, maxSizePerMsg: NO_LIMIT, maxInflightMsgs: 256, randomInt };
}

export function newTestMemoryStorage(peers: NodeId[] = []): MemoryStorage {
  return new MemoryStorage(peers);
}

export function newTestRaft(id: NodeId, election: number, heartbeat: number, storage: MemoryStorage): Raft {
  return new Raft(newTestConfig(id, election, heartbeat, storage));
}

export function idsBySize(size: number): NodeId[] {
  return Array.from({ length: size }, (_, i) => i + 1);
}

/** An entry as the tests write them: index and term, with optional data. */
export function ent(index: number, term: number, data?: string): Entry {
  return data === undefined ? { index, term, type: 'EntryNormal', bytes: 0 } : { index, term, type: 'EntryNormal', data, bytes: data.length };
}

/** index(i).terms(t...) of raft_test.go: consecutive entries from index i with these terms. */
export function entries(from: number, ...terms: number[]): Entry[] {
  return terms.map((term, i) => ent(from + i, term));
}

/** A proposal entry (its term and index are set by the leader). */
export function prop(data?: string): Entry {
  return ent(0, 0, data);
}

export function msg(fields: Partial<Message> & Pick<Message, 'type'>): Message {
  return message(fields);
}

export function advanceMessagesAfterAppend(r: Raft): void {
  for (;;) {
    const msgs = r.msgsAfterAppend;
    r.msgsAfterAppend = [];
    if (msgs.length === 0) return;
    for (const m of msgs) {
      if (m.to === r.id) r.step(m);
      else r.msgs.push(m);
    }
  }
}

export function readMessages(r: Raft): Message[] {
  advanceMessagesAfterAppend(r);
  const msgs = r.msgs;
  r.msgs = [];
  return msgs;
}

export function mustAppendEntry(r: Raft, ...es: Entry[]): void {
  if (!r.appendEntry(es)) throw new Error('entry unexpectedly dropped');
}

/** Persists what is unstable, runs the post-append steps and returns what is now appliable (nextEnts). */
export function nextEnts(r: Raft, s: MemoryStorage): Entry[] {
  s.append(r.raftLog.nextUnstableEnts());
  r.raftLog.stableTo(r.raftLog.lastIndex(), r.raftLog.lastTerm());
  advanceMessagesAfterAppend(r);
  const ents = r.raftLog.nextCommittedEnts(true);
  r.raftLog.appliedTo(r.raftLog.committed, 0);
  return ents;
}

/** Upstream's messageSlice order: by recipient, then type, then sender. */
const TYPE_ORDER: MessageType[] = [
  'MsgHup', 'MsgBeat', 'MsgProp', 'MsgApp', 'MsgAppResp', 'MsgVote', 'MsgVoteResp', 'MsgSnap', 'MsgHeartbeat', 'MsgHeartbeatResp',
  'MsgUnreachable', 'MsgSnapStatus', 'MsgCheckQuorum', 'MsgTransferLeader', 'MsgTimeoutNow', 'MsgReadIndex', 'MsgReadIndexResp', 'MsgPreVote', 'MsgPreVoteResp',
];
export function sortMessages(msgs: Message[]): Message[] {
  return [...msgs].sort((a, b) => a.to - b.to || TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type) || a.from - b.from);
}

/** A peer that swallows every message (upstream's nopStepper). */
export const BLACK_HOLE = 'black-hole' as const;
export type Peer = Raft | typeof BLACK_HOLE | undefined;

/** A fresh raft with these entry terms and its term at the last one (entsWithConfig). */
export function entsWithConfig(configure: ((c: RaftConfig) => void) | undefined, ...terms: number[]): Raft {
  const storage = new MemoryStorage();
  terms.forEach((term, i) => storage.append([ent(i + 1, term)]));
  const cfg = newTestConfig(1, 5, 1, storage);
  configure?.(cfg);
  const r = new Raft(cfg);
  r.reset(terms[terms.length - 1]!);
  return r;
}

/** A raft that voted for `vote` in `term` and has no entries (votedWithConfig). */
export function votedWithConfig(configure: ((c: RaftConfig) => void) | undefined, vote: NodeId, term: number): Raft {
  const storage = new MemoryStorage();
  storage.setHardState({ term, vote, commit: 0 });
  const cfg = newTestConfig(1, 5, 1, storage);
  configure?.(cfg);
  const r = new Raft(cfg);
  r.reset(term);
  return r;
}

export const preVoteConfig = (c: RaftConfig): void => {
  c.preVote = true;
};

export class Network {
  readonly peers = new Map<NodeId, Raft | typeof BLACK_HOLE>();
  readonly storage = new Map<NodeId, MemoryStorage>();
  private dropm = new Map<string, number>();
  private ignorem = new Set<MessageType>();
  msgHook: ((m: Message) => boolean) | undefined;
  private readonly dropRandom = new Random('raft-network');

  /** undefined peers become fresh rafts with election 10, heartbeat 1, over peers 1..n. */
  constructor(configure: ((c: RaftConfig) => void) | undefined, ...peers: Peer[]) {
    const ids = idsBySize(peers.length);
    peers.forEach((p, j) => {
      const id = ids[j]!;
      if (p === undefined) {
        const storage = newTestMemoryStorage(ids);
        this.storage.set(id, storage);
        const cfg = newTestConfig(id, 10, 1, storage);
        configure?.(cfg);
        this.peers.set(id, new Raft(cfg));
      } else if (p === BLACK_HOLE) {
        this.peers.set(id, p);
      } else {
        (p as { id: NodeId }).id = id;
        p.trk = new ProgressTracker(ids, p.trk.maxInflight, p.trk.maxInflightBytes);
        for (const pid of ids) p.trk.progress.set(pid, new Progress(0, 1, p.trk.maxInflight, p.trk.maxInflightBytes));
        p.reset(p.term);
        this.peers.set(id, p);
      }
    });
  }

  raft(id: NodeId): Raft {
    const p = this.peers.get(id);
    if (!p || p === BLACK_HOLE) throw new Error(`peer ${id} is not a raft`);
    return p;
  }

  send(...msgs: Message[]): void {
    const queue = [...msgs];
    while (queue.length > 0) {
      const m = queue.shift()!;
      const p = this.peers.get(m.to);
      if (!p || p === BLACK_HOLE) continue;
      p.step(m);
      advanceMessagesAfterAppend(p);
      queue.push(...this.filter(readMessages(p)));
    }
  }

  drop(from: NodeId, to: NodeId, perc: number): void {
    this.dropm.set(`${from}->${to}`, perc);
  }

  cut(one: NodeId, other: NodeId): void {
    this.drop(one, other, 2);
    this.drop(other, one, 2);
  }

  isolate(id: NodeId): void {
    for (let i = 1; i <= this.peers.size; i++) {
      if (i === id) continue;
      this.drop(id, i, 1);
      this.drop(i, id, 1);
    }
  }

  ignore(t: MessageType): void {
    this.ignorem.add(t);
  }

  recover(): void {
    this.dropm = new Map();
    this.ignorem = new Set();
  }

  filter(msgs: Message[]): Message[] {
    return msgs.filter((m) => {
      if (this.ignorem.has(m.type)) return false;
      if (m.type === 'MsgHup') throw new Error('unexpected msgHup');
      const perc = this.dropm.get(`${m.from}->${m.to}`) ?? 0;
      if (this.dropRandom.next() < perc) return false;
      return !this.msgHook || this.msgHook(m);
    });
  }
}

/** The log as text (upstream's ltoa), to compare two nodes' logs. */
export function ltoa(r: Raft | RaftLog): string {
  const l = r instanceof Raft ? r.raftLog : r;
  let s = `lastIndex: ${l.lastIndex()}\napplied:  ${l.applied}\napplying:  ${l.applying}\n`;
  l.allEntries().forEach((e, i) => (s += `#${i}: {term: ${e.term}, index: ${e.index}, data: ${String(e.data ?? '')}}\n`));
  return s;
}

/** A log over a storage holding these entries (upstream's newLog(&MemoryStorage{ents})). */
export function logOf(ents: Entry[]): RaftLog {
  const s = new MemoryStorage();
  s.append(ents);
  return new RaftLog(s);
}
