/**
 * kubectl-validate's own testcases (test/conformance/kubectl-validate, see PROVENANCE.md) through
 * `kubesim validate`'s validator: the CRDs first (served within the run, as local CRDs), then
 * every manifest, each as a dry run against that cluster. A manifest's verdict (every document
 * valid, or not) must be kubectl-validate's Success or Failure, except where differences.json
 * says why kube-apiserver answers otherwise.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createValidationCluster, Validator } from '../../src/engine/validator/validator';

const dir = path.join(__dirname, 'kubectl-validate');
const read = (file: string): string => (file.endsWith('.gz') ? gunzipSync(fs.readFileSync(file)).toString('utf8') : fs.readFileSync(file, 'utf8'));
const differences = JSON.parse(fs.readFileSync(path.join(dir, 'differences.json'), 'utf8')) as Record<string, { kubesim: 'valid' | 'invalid'; why: string }>;

/** kubectl-validate's expectation: the JSON Status in the manifest's leading comment lines. */
function expected(text: string): 'valid' | 'invalid' {
  const comment = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('#')) break;
    comment.push(line.slice(1));
  }
  try {
    return (JSON.parse(comment.join('\n')) as { status?: string }).status === 'Failure' ? 'invalid' : 'valid';
  } catch {
    return 'valid'; // empty manifests carry no Status: nothing to refuse
  }
}

describe('conformance: kubectl-validate testcases', function () {
  this.timeout(120_000);

  it('gives kubectl-validate verdicts, or kube-apiserver answers where differences.json says so', async () => {
    const server = await createValidationCluster();
    try {
      const store = new Validator(server, true);
      for (const sub of ['crds', 'more-crds']) {
        for (const f of fs.readdirSync(path.join(dir, sub)).sort()) {
          const reports = await store.validateFile(`${sub}/${f}`, read(path.join(dir, sub, f)));
          const crds = reports.filter((r) => r.kind === 'CustomResourceDefinition');
          assert.ok(crds.every((r) => r.valid), `${sub}/${f}: ${JSON.stringify(crds.filter((r) => !r.valid).map((r) => r.errors))}`);
        }
      }
      const dry = new Validator(server, true, { dryRun: true });
      const problems: string[] = [];
      const files = fs.readdirSync(path.join(dir, 'manifests')).filter((f) => f.endsWith('.yaml')).sort();
      for (const f of files) {
        const text = read(path.join(dir, 'manifests', f));
        const reports = await dry.validateFile(f, text);
        const verdict = reports.every((r) => r.valid) ? 'valid' : 'invalid';
        const want = differences[f]?.kubesim ?? expected(text);
        if (verdict !== want) problems.push(`${f}: ${verdict}, expected ${want}: ${reports.flatMap((r) => r.errors.map((e) => e.message)).join('; ')}`);
        if (differences[f] && verdict === expected(text)) problems.push(`${f}: now agrees with kubectl-validate; remove it from differences.json`);
      }
      console.log(`kubectl-validate testcases: ${files.length} manifests, ${files.length - problems.length} as expected, ${Object.keys(differences).length} listed differences`);
      assert.equal(problems.length, 0, problems.join('\n'));
    } finally {
      await server.close();
    }
  });
});
