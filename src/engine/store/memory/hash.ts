/**
 * etcd's HashKV (mvcc's HashByRev): a CRC-32C over the key bucket as bbolt holds it, each record
 * as its revision key (8 bytes main, '_', 8 bytes sub, big-endian; a tombstone's key ends in 't')
 * and its marshalled mvccpb.KeyValue, in the bucket's byte order, up to a revision. Members that
 * applied the same entries have the same hash: it is how etcd's corruption check and `etcdctl
 * endpoint hashkv` compare replicas.
 *
 * Records below the compaction revision are still in the bucket when a compaction kept them (the
 * latest version of a key at the compaction revision, if that is not a deletion); they count only
 * while they are still the version a compaction at the hashed revision would keep.
 */
import { StoreError, type KeyValue } from '../types';
import { generationStart, isTombstone } from './key-index';
import type { KvStore } from './kv-store';

export interface HashKVResult {
  readonly hash: number;
  /** The store's revision when the hash was taken (HashKVResponse's header revision). */
  readonly currentRevision: number;
  /** etcd's compactMainRev: -1 before any compaction. */
  readonly compactRevision: number;
}

const CASTAGNOLI = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** A running CRC-32C (Go's crc32.New(crc32.MakeTable(crc32.Castagnoli))). */
export class Crc32c {
  private crc = 0xffffffff;

  update(bytes: Uint8Array): this {
    let c = this.crc;
    for (let i = 0; i < bytes.length; i++) c = CASTAGNOLI[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
    this.crc = c;
    return this;
  }

  digest(): number {
    return (this.crc ^ 0xffffffff) >>> 0;
  }
}

/** The key bucket's key for a record: revision {main, sub}, with etcd's tombstone mark. */
export function revisionKey(main: number, sub: number, tombstone: boolean): Buffer {
  const b = Buffer.alloc(tombstone ? 18 : 17);
  b.writeBigUInt64BE(BigInt(main), 0);
  b[8] = 0x5f; // '_'
  b.writeBigUInt64BE(BigInt(sub), 9);
  if (tombstone) b[17] = 0x74; // 't'
  return b;
}

function varint(out: number[], n: number): void {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

/**
 * A record as etcd stores it: mvccpb.KeyValue marshalled, proto3 defaults left out, fields in
 * number order (key 1, create_revision 2, mod_revision 3, version 4, value 5, lease 6). A
 * deletion is stored as a KeyValue holding only its key.
 */
export function marshalKeyValue(kv: KeyValue): Buffer {
  const head: number[] = [];
  const key = Buffer.from(kv.key, 'utf8');
  head.push(0x0a);
  varint(head, key.length);
  const parts: Buffer[] = [Buffer.from(head), key];
  if (isTombstone(kv)) return Buffer.concat(parts);
  const mid: number[] = [];
  if (kv.createRevision) (mid.push(0x10), varint(mid, kv.createRevision));
  if (kv.modRevision) (mid.push(0x18), varint(mid, kv.modRevision));
  if (kv.version) (mid.push(0x20), varint(mid, kv.version));
  const value = Buffer.from(kv.value, 'utf8');
  if (value.length > 0) {
    mid.push(0x2a);
    varint(mid, value.length);
  }
  parts.push(Buffer.from(mid));
  if (value.length > 0) parts.push(value);
  if (kv.lease) {
    const tail: number[] = [0x30];
    varint(tail, kv.lease);
    parts.push(Buffer.from(tail));
  }
  return Buffer.concat(parts);
}

/**
 * The revisions a compaction at `atRev` would keep (etcd's keyIndex.keep): per key, in the first
 * generation not deleted at or before atRev, its last record at or before atRev.
 */
function kept(records: readonly KeyValue[], atRev: number, into: Set<KeyValue>): void {
  let keep: KeyValue | undefined;
  for (let i = generationStart(records, atRev); i < records.length; i++) {
    const kv = records[i]!;
    if (kv.modRevision > atRev) break;
    keep = kv;
    if (isTombstone(kv)) break;
  }
  if (keep && !isTombstone(keep)) into.add(keep);
}

/** HashKV at `revision` (0: the current one), with etcd's errors for a compacted or future revision. */
export function hashKV(store: KvStore, revision: number): HashKVResult {
  const compactRevision = store.compactRev;
  const currentRevision = store.currentRev;
  if (revision > 0 && revision <= compactRevision) throw new StoreError('compacted');
  if (revision > currentRevision) throw new StoreError('futureRevision');
  const rev = revision === 0 ? currentRevision : revision;
  const keep = new Set<KeyValue>();
  const records: { kv: KeyValue; sub: number }[] = [];
  store.index.forEachKey((history) => {
    kept(history, rev, keep);
    for (const kv of history) if (kv.modRevision <= rev) records.push({ kv, sub: store.subRevision(kv) });
  });
  records.sort((a, b) => a.kv.modRevision - b.kv.modRevision || a.sub - b.sub);
  const crc = new Crc32c().update(Buffer.from('key'));
  for (const { kv, sub } of records) {
    // Below the compaction, a record left in the bucket counts only while a compaction at rev keeps it.
    if (kv.modRevision <= compactRevision && keep.size > 0 && !keep.has(kv)) continue;
    crc.update(revisionKey(kv.modRevision, sub, isTombstone(kv)));
    crc.update(marshalKeyValue(kv));
  }
  return { hash: crc.digest(), currentRevision, compactRevision };
}
