/**
 * Snapshots of the memory store: what an etcd member reads back from its data directory after a
 * restart. Every record the key index still holds (each key's history since the last
 * compaction), the revision log in apply order, the current and compacted revisions and the
 * leases with the time they have left. A restored store answers reads, ranges at old revisions
 * and watches from old revisions exactly as the original did; only its watchers are gone, as a
 * restarted server's clients must watch again.
 */
import { STORE_SNAPSHOT_FORMAT, type RecordTuple, type StoreSnapshot } from '../snapshot';
import type { KeyValue } from '../types';
import { isTombstone } from './key-index';
import type { KvStore } from './kv-store';
import type { Lessor } from './lessor';

function tuple(kv: KeyValue): RecordTuple {
  return [kv.key, kv.value, kv.createRevision, kv.modRevision, kv.version, kv.lease];
}

function record(t: RecordTuple): KeyValue {
  return { key: t[0], value: t[1], createRevision: t[2], modRevision: t[3], version: t[4], lease: t[5] };
}

export function takeSnapshot(kv: KvStore, lessor: Lessor, now: number): StoreSnapshot {
  const logStart = kv.log.firstRevision;
  const base: RecordTuple[] = [];
  kv.index.forEachRecord((r) => {
    if (r.modRevision < logStart) base.push(tuple(r));
  });
  const log: RecordTuple[][] = [];
  for (let rev = logStart; rev <= kv.currentRev; rev++) log.push([]);
  kv.log.scan(logStart, kv.currentRev, (r) => void log[r.modRevision - logStart]!.push(tuple(r)));
  const leases = lessor.state();
  return {
    format: STORE_SNAPSHOT_FORMAT,
    revision: kv.currentRev,
    compactRevision: kv.compactRev,
    base,
    logStart,
    log,
    nextLeaseId: leases.nextId,
    // A lease of a lessor that is not primary never expires there: restored, it gets its full TTL.
    leases: leases.leases.map(({ id, ttl, expiry }) => ({ id, ttl, remainingMs: Number.isFinite(expiry) ? Math.max(0, expiry - now) : ttl * 1000 })),
  };
}

/** Fills a brand-new store from a snapshot; throws on a snapshot that is not one. */
export function restoreSnapshot(kv: KvStore, lessor: Lessor, snapshot: StoreSnapshot): void {
  checkSnapshot(snapshot);
  const latest = new Map<string, KeyValue>();
  const add = (r: KeyValue): void => {
    kv.index.append(r);
    latest.set(r.key, r);
  };
  for (const t of snapshot.base) add(record(t));
  kv.log.startAt(snapshot.logStart);
  snapshot.log.forEach((changes, i) => {
    const records = changes.map(record);
    records.forEach((r, sub) => {
      add(r);
      kv.noteSub(r, sub);
    });
    kv.log.append(snapshot.logStart + i, records);
  });
  kv.currentRev = snapshot.revision;
  kv.compactRev = snapshot.compactRevision;
  lessor.restore({ nextId: snapshot.nextLeaseId, leases: snapshot.leases });
  for (const r of latest.values()) {
    if (isTombstone(r)) continue;
    kv.liveKeys++;
    if (r.lease !== 0) lessor.attach(r.lease, r.key);
  }
}

function invalid(why: string): never {
  throw new Error(`store snapshot: ${why}`);
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

function isTuple(v: unknown): v is RecordTuple {
  return Array.isArray(v) && v.length === 6 && typeof v[0] === 'string' && v[0] !== '' && typeof v[1] === 'string' && v.slice(2).every(isInt);
}

function checkSnapshot(s: StoreSnapshot): void {
  if (typeof s !== 'object' || s === null || s.format !== STORE_SNAPSHOT_FORMAT) invalid(`not a ${STORE_SNAPSHOT_FORMAT} snapshot`);
  if (!isInt(s.revision) || s.revision < 1 || !isInt(s.compactRevision) || s.compactRevision > s.revision) invalid('bad revisions');
  if (!isInt(s.logStart) || !Array.isArray(s.log) || s.logStart + s.log.length - 1 !== s.revision) invalid('the revision log does not end at the current revision');
  if (!Array.isArray(s.base) || !s.base.every((t) => isTuple(t) && t[3] < s.logStart)) invalid('bad base records');
  s.log.forEach((changes, i) => {
    if (!Array.isArray(changes) || !changes.every((t) => isTuple(t) && t[3] === s.logStart + i)) invalid(`bad changes at revision ${s.logStart + i}`);
  });
  if (!isInt(s.nextLeaseId) || !Array.isArray(s.leases)) invalid('bad leases');
  for (const l of s.leases) {
    if (!isInt(l.id) || !isInt(l.ttl) || typeof l.remainingMs !== 'number' || !(l.remainingMs >= 0)) invalid('bad lease');
  }
}

