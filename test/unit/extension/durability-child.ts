/**
 * The child process durability.test.ts kills: a session's saving loop on its own. It starts as
 * a session does (temporary files of interrupted saves removed, the saved cluster and its trace
 * read), then saves a big cluster over and over, a few trace records between saves, printing
 * "saved <n>" after each save returns, until it is killed.
 *   node durability-child.js <folder> <kilobytes of store records>
 */
import { join } from 'node:path';
import type { Clock } from '../../../src/engine/clock';
import { STORE_SNAPSHOT_FORMAT } from '../../../src/engine/store';
import { TraceBuffer } from '../../../src/engine/trace/buffer';
import { SnapshotFile } from '../../../src/extension/persistence';
import { CLUSTER_SNAPSHOT_FORMAT, type ClusterSnapshot } from '../../../src/extension/snapshot';

export const TRACE_CAPACITY = 500;
export const RECORDS_PER_SAVE = 7;

/** A snapshot whose `time` is the save's number, with `kb` records of about a kilobyte each. */
export function bigSnapshot(save: number, kb: number): ClusterSnapshot {
  const value = JSON.stringify({ kind: 'ConfigMap', data: { blob: 'x'.repeat(960) } });
  const base: [string, string, number, number, number, number][] = [];
  for (let i = 0; i < kb; i++) base.push([`/registry/configmaps/default/cm-${i}`, value, i + 2, i + 2, 1, 0]);
  return {
    format: CLUSTER_SNAPSHOT_FORMAT,
    seed: 'durability',
    time: save,
    clock: { state: 'running', speed: 1 },
    nodes: [{ config: { name: 'kubesim-worker', internalIP: '172.18.0.3', podCIDR: '10.244.1.0/24' } as never, running: true }],
    store: { format: STORE_SNAPSHOT_FORMAT, revision: kb + 1, compactRevision: -1, base, logStart: kb + 2, log: [], nextLeaseId: 1, leases: [] },
  };
}

async function main(): Promise<void> {
  const [folder, kbText] = process.argv.slice(2);
  const kb = Number(kbText);
  const file = new SnapshotFile(join(folder!, 'cluster.json'));
  await file.removeInterruptedWrites();
  const saved = await file.load(TRACE_CAPACITY);
  let save = saved ? saved.snapshot.time : 0;
  let now = save;
  const trace = new TraceBuffer({ clock: { now: () => now } as unknown as Clock, capacity: TRACE_CAPACITY, restore: saved?.trace });
  await file.claim();
  const snapshot = bigSnapshot(0, kb);
  for (;;) {
    save++;
    now = save;
    // The records a save carries name it: the last one before save n says "before save n".
    for (let i = 0; i < RECORDS_PER_SAVE; i++) trace.emit({ type: 'kube.event', component: 'durability', reason: `before save ${save}` } as never);
    await file.save({ ...snapshot, time: save }, trace);
    process.stdout.write(`saved ${save}\n`);
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
