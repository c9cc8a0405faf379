/**
 * `kubesim apply --etcd-members N --etcd-latency model|instant --etcd-fault ACTION:TARGET@TIME`:
 * the flags' usage errors, the faults on the virtual clock (the leader stopped at 2 s: a new
 * leader at a higher term in the timeline and in the "etcd" block of --output json), and the
 * block's fields for every member.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runApply } from '../../../src/cli/apply';
import { parseEtcdSimFlag, type EtcdSimFlags } from '../../../src/cli/etcd-sim-flags';
import type { TraceRecord } from '../../../src/engine/trace/types';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runApply(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n';

describe('kubesim apply: the simulated etcd flags', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-etcd-sim-'));
    file = join(dir, 'cm.yaml');
    writeFileSync(file, CONFIGMAP);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects bad values with a usage error', () => {
    const flags = (): EtcdSimFlags => ({ faults: [] });
    assert.match(parseEtcdSimFlag('--etcd-members', '2', flags())!, /use 1, 3 or 5/);
    assert.match(parseEtcdSimFlag('--etcd-latency', 'fast', flags())!, /use model or instant/);
    assert.match(parseEtcdSimFlag('--etcd-fault', 'stop-leader', flags())!, /ACTION:TARGET@TIME/);
    assert.match(parseEtcdSimFlag('--etcd-fault', 'kill:leader@2s', flags())!, /stop, start, partition, heal or slow/);
    assert.match(parseEtcdSimFlag('--etcd-fault', 'stop:node-1@2s', flags())!, /leader or a member name/);
    assert.match(parseEtcdSimFlag('--etcd-fault', 'stop:leader@soon', flags())!, /virtual duration/);
    const ok = flags();
    assert.equal(parseEtcdSimFlag('--etcd-fault', 'slow:etcd-2@1m30s', ok), undefined);
    assert.deepEqual(ok.faults, [{ action: 'slow', target: 'etcd-2', atMs: 90_000, text: 'slow:etcd-2@1m30s' }]);
  });

  it('refuses a fault on a member the cluster does not have, and the flags with --etcd-endpoints', async () => {
    const r = await run(['-f', file, '--etcd-members', '3', '--etcd-fault', 'stop:etcd-3@1s']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: --etcd-fault stop:etcd-3@1s: etcd member "etcd-3" not found \(members: etcd-0, etcd-1, etcd-2\)/);
    const e = await run(['-f', file, '--etcd-members', '3', '--etcd-endpoints', 'http://127.0.0.1:2379']);
    assert.equal(e.code, 2);
    assert.match(e.stderr, /are for the simulated etcd/);
  });

  it('stops the leader at 2 s: the timeline and the json "etcd" block show a new leader at a higher term', async () => {
    const argv = ['-f', file, '--nodes', '1', '--etcd-members', '3', '--etcd-latency', 'model', '--etcd-fault', 'stop:leader@2s', '--until', '5s'];
    const json = await run([...argv, '--output', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const out = JSON.parse(json.stdout) as { etcd: { members: Record<string, unknown>[] }; records: TraceRecord[] };
    assert.equal(out.etcd.members.length, 3);
    for (const m of out.etcd.members) assert.deepEqual(Object.keys(m), ['name', 'role', 'state', 'term', 'commitIndex', 'appliedIndex', 'revision', 'dbSizeBytes']);
    const stopped = out.etcd.members.filter((m) => m.state === 'stopped');
    assert.equal(stopped.length, 1);
    const leaders = out.etcd.members.filter((m) => m.role === 'leader');
    assert.equal(leaders.length, 1);
    assert.ok((leaders[0]!.term as number) > (stopped[0]!.term as number), JSON.stringify(out.etcd.members));
    const running = out.etcd.members.filter((m) => m.state === 'running');
    assert.equal(new Set(running.map((m) => m.revision)).size, 1);
    const timeline = await run(argv);
    assert.equal(timeline.code, 0, timeline.stderr);
    assert.match(timeline.stdout, new RegExp(`\\+2\\.000s +${stopped[0]!.name as string} +${stopped[0]!.name as string} stopped`));
    assert.match(timeline.stdout, new RegExp(`${leaders[0]!.name as string} +${leaders[0]!.name as string} became leader at term ${leaders[0]!.term as number}`));
  });
});
