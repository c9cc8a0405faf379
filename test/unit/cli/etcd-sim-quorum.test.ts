/**
 * `kubesim apply --etcd-fault` runs whose etcd cannot answer the end-of-run listing at once: the
 * leader partitioned (the apiserver's reads that reach it time out in its ReadIndex round and, as
 * clientv3 retries Unavailable reads, are answered by another member) and quorum lost then
 * regained. None may crash or hang. (Quorum lost to the end: test/unit/cli/etcd-sim.test.ts.)
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runApplyCaptured as run } from './run-apply';

const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n';

describe('kubesim apply: etcd faults at the end of the run', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-etcd-quorum-'));
    file = join(dir, 'cm.yaml');
    writeFileSync(file, CONFIGMAP);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the leader partitioned: the listing is answered by the majority side', async function () {
    this.timeout(120_000);
    const out = await run(['-f', file, '--until', '20s', '--etcd-fault', 'partition:leader@3s']);
    assert.equal(out.stderr, '');
    assert.equal(out.code, 0);
    assert.match(out.stdout, /^configmap\/settings created$/m);
    assert.match(out.stdout, /^service\/kubernetes\s+ClusterIP\s+10\.96\.0\.1 /m);
  });

  it('quorum lost, then a member started again: the run ends with every object listed', async function () {
    this.timeout(120_000);
    const out = await run(['-f', file, '--until', '20s', '--etcd-fault', 'stop:etcd-1@2s', '--etcd-fault', 'stop:etcd-2@3s', '--etcd-fault', 'start:etcd-1@10s']);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^configmap\/settings created$/m);
    assert.match(out.stdout, /^service\/kubernetes\s+ClusterIP\s+10\.96\.0\.1 /m);
  });
});
