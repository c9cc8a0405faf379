import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { kubesimDiagnostics, repoPath, summary, type DiagnosticSummary } from './support';

const RFC1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const RFC1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** examples/broken.yaml as kube-apiserver 1.35 judges it: every field error, on its YAML node. */
const BROKEN: DiagnosticSummary[] = [
  { range: [6, 8, 6, 14], severity: 'Error', code: 'Invalid value', message: `metadata.name: Invalid value: "My_Web": ${RFC1123}` },
  { range: [8, 12, 8, 14], severity: 'Error', code: 'Invalid value', message: 'spec.replicas: Invalid value: -1: must be greater than or equal to 0' },
  { range: [15, 8, 15, 20], severity: 'Error', code: 'Invalid value', message: 'spec.template.metadata.labels: Invalid value: {"app":"website"}: `selector` does not match template `labels`' },
  { range: [21, 29, 21, 34], severity: 'Error', code: 'Invalid value', message: 'spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive' },
  { range: [24, 14, 24, 22], severity: 'Error', code: 'Invalid value', message: 'spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 500m' },
  { range: [27, 16, 27, 23], severity: 'Error', code: 'Invalid value', message: `spec.template.spec.containers[1].name: Invalid value: "Sidecar": ${RFC1123_LABEL}` },
  { range: [40, 16, 40, 18], severity: 'Error', code: 'Invalid value', message: 'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767' },
];

suite('kubesim diagnostics in the editor', () => {
  test('examples/broken.yaml: every API server field error, on its node', async () => {
    const doc = await vscode.workspace.openTextDocument(repoPath('examples', 'broken.yaml'));
    await vscode.window.showTextDocument(doc);
    const diagnostics = await kubesimDiagnostics(doc.uri, (d) => d.length >= BROKEN.length);
    assert.deepEqual(diagnostics.map(summary), BROKEN);
  });

  test('an edit revalidates: the error comes with a bad name and goes with the fix', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Settings_1\ndata:\n  mode: fast\n' });
    await vscode.window.showTextDocument(doc);
    const [error] = await kubesimDiagnostics(doc.uri, (d) => d.length > 0);
    assert.deepEqual(summary(error!), { range: [3, 8, 3, 18], severity: 'Error', code: 'Invalid value', message: `metadata.name: Invalid value: "Settings_1": ${RFC1123}` });
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(3, 8, 3, 18), 'settings-1');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.deepEqual(await kubesimDiagnostics(doc.uri, (d) => d.length === 0), []);
  });

  test('unknown fields are errors on their key, as server-side apply refuses them', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  lables:\n    app: web\n' });
    const [error] = await kubesimDiagnostics(doc.uri, (d) => d.length > 0);
    assert.deepEqual(summary(error!), {
      range: [4, 2, 4, 8],
      severity: 'Error',
      code: 'Unknown field',
      message: 'failed to create typed patch object (default/settings; /v1, Kind=ConfigMap): .metadata.lables: field not declared in schema',
    });
  });

  test('YAML that is not a Kubernetes object gets no kubesim diagnostics', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: 'name: build\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: Bad_Name\n' });
    const diagnostics = await kubesimDiagnostics(doc.uri, (d) => d.length > 0);
    assert.deepEqual(diagnostics.map((d) => d.range.start.line), [9]);
  });
});
