/**
 * Which request wrote each etcd revision, for the revision records' causes (docs/architecture.md, invariant 2).
 * The watch cache may see a revision before the request that wrote it has finished, so a
 * request announces each write just before its etcd transaction: the key and the revision the
 * transaction expects to find there (0 to create it). A revision comes out of the store with
 * its previous revision, which names exactly one announced write: of several writers expecting
 * the same previous revision only the first to send its transaction can have succeeded.
 */

export interface Writer {
  /** The trace id of the request's record. */
  readonly request: number;
  readonly user: string;
}

export interface PendingWrite extends Writer {
  readonly key: string;
  readonly prevRevision: number;
  /** The revision the write produced, once the request knows it. */
  revision: number | undefined;
  /** The watch cache has seen the write. */
  observed: boolean;
}

export class WriteAttribution {
  /** By key, in the order the writes were announced (almost always one). */
  private readonly pending = new Map<string, PendingWrite[]>();

  /** A request is about to write `key`, expecting it at `prevRevision` (0: it does not exist). */
  expect(key: string, prevRevision: number, writer: Writer): PendingWrite {
    const write: PendingWrite = { request: writer.request, user: writer.user, key, prevRevision, revision: undefined, observed: false };
    const list = this.pending.get(key);
    if (list) list.push(write);
    else this.pending.set(key, [write]);
    return write;
  }

  /** The write landed at `revision`. */
  landed(write: PendingWrite, revision: number): void {
    write.revision = revision;
    if (write.observed) this.remove(write);
  }

  /** The watch cache saw `revision` replace `prevRevision` at `key`: who wrote it, if announced. */
  observed(key: string, prevRevision: number, revision: number): Writer | undefined {
    const list = this.pending.get(key);
    const write = list?.find((w) => w.prevRevision === prevRevision && !w.observed && (w.revision === undefined || w.revision === revision));
    if (!write) return undefined;
    write.observed = true;
    if (write.revision !== undefined) this.remove(write);
    return write;
  }

  /** The request ended: what it announced and did not write (a lost race, a no-op) is forgotten. */
  finished(writes: readonly PendingWrite[]): void {
    for (const w of writes) if (w.revision === undefined || w.observed) this.remove(w);
  }

  private remove(write: PendingWrite): void {
    const list = this.pending.get(write.key);
    if (!list) return;
    if (list.length === 1) {
      if (list[0] === write) this.pending.delete(write.key);
      return;
    }
    const i = list.indexOf(write);
    if (i >= 0) list.splice(i, 1);
  }
}
