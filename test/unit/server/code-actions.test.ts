import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import type { Diagnostic, TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import { quickFixes } from '../../../src/server/code-actions';
import { toDnsName } from '../../../src/server/code-actions/dns-name';
import { MirrorCluster } from '../../../src/server/mirror/mirror-cluster';
import { unitAt } from '../../../src/server/units';
import type { DiagnosticData } from '../../../src/server/validation/diagnostics';
import { FileValidator } from '../../../src/server/validation/file-validator';

const URI = 'file:///test.yaml';

describe('server: quick fixes', function () {
  this.timeout(20_000);
  let mirror: MirrorCluster;
  before(async () => (mirror = await MirrorCluster.create()));
  after(() => mirror.close());

  /** The diagnostics of `text` and, for the first whose message matches, its fixes applied one by one. */
  async function fixes(text: string, match: RegExp): Promise<{ diagnostics: Diagnostic[]; results: Array<{ title: string; text: string }> }> {
    const file = new FileValidator('test.yaml', mirror);
    const diagnostics = await file.validate(text, { user: ADMIN_USER, fieldValidation: 'Strict' }, () => true);
    const diagnostic = diagnostics.find((d) => match.test(d.message));
    assert.ok(diagnostic, `no diagnostic matching ${match}: ${JSON.stringify(diagnostics.map((d) => d.message))}`);
    const unit = unitAt(file.units, diagnostic.range.start)!;
    const actions = quickFixes({ uri: URI, unit, root: unit.doc.node!, diagnostic, field: (diagnostic.data as DiagnosticData).field, registry: mirror.server.registry });
    const doc = TextDocument.create(URI, 'yaml', 1, text);
    file.dispose();
    return { diagnostics, results: actions.map((a) => ({ title: a.title, text: TextDocument.applyEdits(doc, a.edit!.changes![URI] as TextEdit[]) })) };
  }

  async function remaining(text: string): Promise<string[]> {
    const file = new FileValidator('test.yaml', mirror);
    const messages = (await file.validate(text, { user: ADMIN_USER, fieldValidation: 'Strict' }, () => true)).map((d) => d.message);
    file.dispose();
    return messages;
  }

  const broken = readFileSync('examples/broken.yaml', 'utf8');

  it('selector vs template labels: either side can be made to match, and the error goes', async () => {
    const { results } = await fixes(broken, /`selector` does not match/);
    assert.deepEqual(results.map((r) => r.title), ['Add the selector’s labels to the pod template', 'Make the selector match the pod template’s labels']);
    assert.ok(results[0]!.text.includes('      labels:\n        app: web\n'));
    assert.ok(results[1]!.text.includes('    matchLabels:\n      app: website\n'));
    for (const r of results) assert.ok(!(await remaining(r.text)).some((m) => m.includes('`selector` does not match')), r.title);
  });

  it('a selector with other keys gets the template labels added, in flow style too', async () => {
    const text = broken.replace('      labels:\n        app: website\n', '      labels: {tier: front}\n');
    const { results } = await fixes(text, /`selector` does not match/);
    assert.ok(results[0]!.text.includes('      labels: {tier: front, app: web}\n'), results[0]!.text);
  });

  it('a missing required field is added with a placeholder of its type', async () => {
    const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: web\n      ports:\n        - name: http\n';
    const { results } = await fixes(text, /containerPort: Required value/);
    assert.deepEqual(results.map((r) => r.title), ['Add required field containerPort']);
    assert.equal(results[0]!.text, text.replace('        - name: http\n', '        - name: http\n          containerPort: 0\n'));
    const image = await fixes(text, /image: Required value/);
    assert.equal(image.results[0]!.text, `${text}      image: <image>\n`);
  });

  it('a Deployment without a selector gets one from its template labels', async () => {
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx\n';
    const { results } = await fixes(text, /^spec\.selector: Required value/);
    assert.equal(results[0]!.text, text.replace('          image: nginx\n', '          image: nginx\n  selector:\n    matchLabels:\n      app: web\n'));
    assert.deepEqual(await remaining(results[0]!.text), []);
  });

  it('apiVersion for the kind: extensions/v1beta1 and v1 Deployments become apps/v1', async () => {
    for (const apiVersion of ['extensions/v1beta1', 'v1']) {
      const text = `apiVersion: ${apiVersion}\nkind: Deployment\nmetadata:\n  name: web\n`;
      const { diagnostics, results } = await fixes(text, /no matches for kind/);
      assert.equal(diagnostics[0]!.message, `no matches for kind "Deployment" in version "${apiVersion}"`);
      assert.deepEqual(results.map((r) => r.title), ['Change apiVersion to apps/v1']);
      assert.ok(results[0]!.text.startsWith('apiVersion: apps/v1\n'));
    }
  });

  it('names become DNS-1123: lowercase, underscores to dashes', async () => {
    const { results } = await fixes(broken, /metadata\.name: Invalid value: "My_Web"/);
    assert.deepEqual(results.map((r) => r.title), ['Rename to my-web']);
    assert.ok(results[0]!.text.includes('  name: my-web\n'));
    assert.equal(toDnsName('-Web_Server.V2-', true), 'web-server.v2');
    assert.equal(toDnsName('api.v1', false), 'api-v1');
    assert.equal(toDnsName('___', false), 'name');
  });

  it('an unknown field can be removed', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  lables:\n    app: web\ndata:\n  a: b\n';
    const { results } = await fixes(text, /\.metadata\.lables: field not declared in schema/);
    assert.deepEqual(results, [{ title: 'Remove unknown field lables', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n' }]);
  });
});
