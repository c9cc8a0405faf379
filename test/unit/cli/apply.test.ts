import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runApplyCaptured as run } from './run-apply';

describe('kubesim apply: input kubectl refuses', function () {
  this.timeout(20_000);
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-apply-'));

  it('a folder without manifest files: the resource builder error', async () => {
    const empty = join(dir, 'empty-folder');
    mkdirSync(empty);
    writeFileSync(join(empty, 'notes.txt'), 'kind: ConfigMap');
    const r = await run(['-f', empty]);
    assert.equal(r.stderr, `error: error reading [${empty}]: recognized file extensions are [.json .yaml .yml]\n`);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
  });

  it('a file with no documents: no objects passed to apply', async () => {
    const file = join(dir, 'empty.yaml');
    writeFileSync(file, '# nothing yet\n---\n');
    const r = await run(['-f', file]);
    assert.equal(r.stderr, 'error: no objects passed to apply\n');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
  });
});
