/**
 * No data lost to a crash: a real child process saves a big cluster over and over
 * (durability-child.ts) and is killed with SIGKILL at moments drawn from a seeded generator,
 * many times. After each kill, the next start (as a session starts) must find the cluster of
 * the last save that returned or of the one under way, whole, with a trace that agrees with it;
 * no damaged file; and the temporary files the kills left must all be removed. The figures are
 * printed (CI's log keeps them).
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { Random } from '../../../src/engine/random';
import { SnapshotFile } from '../../../src/extension/persistence';
import { RECORDS_PER_SAVE, TRACE_CAPACITY } from './durability-child';

const KILLS = Number(process.env.KUBESIM_DURABILITY_KILLS ?? 30);
/** Store records of about a kilobyte: cluster.json is about 10 MB. */
const KILOBYTES = 10_000;

interface Run {
  /** What the child printed: the saves that returned. */
  saved: number;
  /** Milliseconds from the first returned save to the kill. */
  killedAfterMs: number;
}

/** Starts the child, lets it save at least once, then kills it with SIGKILL `delayMs` later. */
function runAndKill(child: string, folder: string, delayMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, folder, String(KILOBYTES)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let firstSave = 0;
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!firstSave && out.includes('saved ')) {
        firstSave = Date.now();
        setTimeout(() => p.kill('SIGKILL'), delayMs);
      }
    });
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`the child exited ${code ?? signal}: ${err}`));
      const saves = [...out.matchAll(/saved (\d+)\n/g)].map((m) => Number(m[1]));
      resolve({ saved: saves.at(-1) ?? 0, killedAfterMs: Date.now() - firstSave });
    });
  });
}

describe('durability: kill -9 in the middle of saves', function () {
  this.timeout(600_000);
  let work: string;
  let child: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'kubesim-durability-'));
    child = join(work, 'child.js');
    await esbuild.build({ entryPoints: [join(__dirname, 'durability-child.ts')], outfile: child, bundle: true, platform: 'node', format: 'cjs', target: 'es2022', logLevel: 'warning' });
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it(`${KILLS} kills: every start reads a whole cluster and its trace, and removes what the kills left`, async () => {
    const folder = join(work, 'storage');
    const random = new Random('durability');
    const path = join(folder, 'cluster.json');
    let lastSaved = 0;
    let sawLast = 0;
    let sawNext = 0;
    let leftFiles = 0;
    let leftBytes = 0;
    let records = 0;
    let size = 0;
    for (let i = 0; i < KILLS; i++) {
      const run = await runAndKill(child, folder, random.int(400));
      // A kill never lands before the first save of the run returned.
      lastSaved = run.saved;
      const file = new SnapshotFile(path);
      const left = readdirSync(folder).filter((n) => n.endsWith('.tmp'));
      const removed = await file.removeInterruptedWrites();
      assert.deepEqual(removed.map((r) => r.file.slice(folder.length + 1)).sort(), left.sort(), 'what the kill left is removed at the next start');
      leftFiles += removed.length;
      leftBytes += removed.reduce((n, r) => n + r.bytes, 0);
      assert.deepEqual(readdirSync(folder).filter((n) => n.endsWith('.tmp') || n.includes('.damaged-')), []);

      const saved = await file.load(TRACE_CAPACITY);
      assert.ok(saved, `run ${i}: a saved cluster`);
      const time = saved.snapshot.time;
      assert.ok(time === lastSaved || time === lastSaved + 1, `run ${i}: the cluster of save ${time}, the last returned being ${lastSaved}`);
      if (time === lastSaved) sawLast++;
      else sawNext++;
      assert.equal(saved.snapshot.store.base.length, KILOBYTES, 'the store whole');
      // The trace agrees with the cluster file: it ends with the records emitted before this save.
      const trace = saved.trace;
      assert.equal(saved.traceDamaged, undefined);
      assert.equal(trace.next, time * RECORDS_PER_SAVE + 1);
      assert.equal(trace.records.length, Math.min(TRACE_CAPACITY, time * RECORDS_PER_SAVE));
      trace.records.forEach((r, k) => assert.equal(r.id, trace.next - trace.records.length + k, 'no record missing'));
      assert.equal((trace.records.at(-1) as unknown as { reason: string }).reason, `before save ${time}`);
      records = trace.records.length;
      size = statSync(path).size;
    }
    const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
    console.log(
      `      durability: ${KILLS} kill -9 during saves of a ${mb(size)} MB cluster.json: every start read a whole cluster ` +
        `(${sawLast} the last saved, ${sawNext} the one being saved), 0 damaged; ${leftFiles} temporary files left by the kills ` +
        `(${mb(leftBytes)} MB), all removed at the next start; the trace (${records} records) matched the cluster file every time`,
    );
    console.log(`      ${JSON.stringify({ bench: 'durability-kill9', kills: KILLS, clusterMB: +mb(size), readLast: sawLast, readNext: sawNext, damaged: 0, tempFilesLeft: leftFiles, tempMBLeft: +mb(leftBytes), tempFilesAfterStart: 0 })}`);
    assert.ok(leftFiles > 0, 'some kills landed in the middle of a write');
  });
});
