/**
 * The workspace's CRDs for the language server: YAML files of the folders read once (node_modules
 * and dot-directories skipped, open files left to their editor text), only CRD documents kept,
 * and a file read again or forgotten when it changes on disk.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkspaceCrds } from '../../../src/server/validation/workspace-crds';

describe('server: the workspace\'s CustomResourceDefinitions', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'kubesim-ws-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the CRDs of the folder\'s YAML files, not node_modules, dot-directories or open files', async () => {
    const crd = readFileSync('test/kubectl/manifests/crontab-crd.yaml', 'utf8');
    mkdirSync(path.join(dir, 'crds'));
    mkdirSync(path.join(dir, 'node_modules', 'x'), { recursive: true });
    mkdirSync(path.join(dir, '.git'));
    writeFileSync(path.join(dir, 'crds', 'crontab.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n${crd}`);
    writeFileSync(path.join(dir, 'node_modules', 'x', 'crd.yaml'), crd.replace('crontabs.stable.example.com', 'other.stable.example.com'));
    writeFileSync(path.join(dir, '.git', 'crd.yml'), crd);
    writeFileSync(path.join(dir, 'open.yaml'), crd);
    const ws = new WorkspaceCrds();
    await ws.scan([dir], (f) => f.endsWith('open.yaml'));
    const found = ws.others(path.join(dir, 'app.yaml'));
    assert.deepEqual(found.map((d) => [d.fileName, (d.object!.metadata as { name: string }).name]), [['crontab.yaml', 'crontabs.stable.example.com']]);
    // deleted on disk: forgotten
    rmSync(path.join(dir, 'crds', 'crontab.yaml'));
    assert.equal(await ws.read(path.join(dir, 'crds', 'crontab.yaml')), true);
    assert.deepEqual(ws.others(path.join(dir, 'app.yaml')), []);
  });
});
