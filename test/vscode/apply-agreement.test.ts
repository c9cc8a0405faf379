/**
 * The editor never contradicts the API server: a file applied with Apply Current Manifest and
 * left unchanged has no diagnostics, whatever its kind; a change the API server forbids shows,
 * at the changed field, exactly the error Dry Run Current Manifest (the same request) prints.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { KubeSimApi } from '../../src/extension/main';
import { EXTENSION_ID, kubesimDiagnostics, repoPath, summary, type DiagnosticSummary } from './support';
import { CONFIGMAP, JOB, lineOf, STATEFULSET } from '../support/apply-manifests';


function api(): KubeSimApi {
  return vscode.extensions.getExtension<KubeSimApi>(EXTENSION_ID)!.exports;
}


/** Replaces the whole text of the document (an edit, as typing would make it). */
async function setText(doc: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

/** What the last command printed to the KubeSim output after its `$ kubectl ...` line. */
function lastOutput(a: KubeSimApi): string {
  const text = a.output.text;
  const start = text.lastIndexOf('\n$ kubectl ');
  return text.slice(text.indexOf('\n', start + 1) + 1).trim();
}

const settled = () => new Promise((r) => setTimeout(r, 1500));

let opened = 0;

/**
 * An untitled YAML document of its own name: VS Code reuses "Untitled-N" once a document is
 * closed, and a closed one can linger in workspace.textDocuments under that name.
 */
async function openManifest(text: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: `agree-${process.pid}-${++opened}.yaml` }));
  await vscode.window.showTextDocument(doc);
  await setText(doc, text);
  return doc;
}

suite('kubesim diagnostics agree with Apply', () => {
  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    await api().session.reset();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api().session.reset();
  });

  /**
   * Opens the manifest and applies it; then each change: its diagnostics are the dry run's
   * answer, at `at`; back to the applied text, nothing (after the cluster has moved on), and
   * applying again answers unchanged.
   */
  async function check(text: string, ref: string, changes: { from: string; to: string; expect: (changed: string) => DiagnosticSummary[] | Promise<DiagnosticSummary[]> }[]): Promise<void> {
    const a = api();
    const doc = await openManifest(text);
    await vscode.commands.executeCommand('kubesim.apply', doc.uri);
    assert.equal(lastOutput(a), `${ref} created`);
    for (const change of changes) {
      const changed = text.replace(change.from, change.to);
      await setText(doc, changed);
      const expected = await change.expect(changed);
      const got = await kubesimDiagnostics(doc.uri, (d) => d.length >= expected.length);
      assert.deepEqual(got.map(summary), expected);
      await vscode.commands.executeCommand('kubesim.dryRun', doc.uri);
      const answer = lastOutput(a);
      for (const d of expected) assert.ok(answer.includes(d.message), `the dry run answers what the editor shows:\n${answer}\n${d.message}`);
      await setText(doc, text);
      await kubesimDiagnostics(doc.uri, (d) => d.length === 0);
      await settled();
      assert.deepEqual(vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'kubesim').map(summary), [], 'still nothing once the controllers have worked');
    }
    await vscode.commands.executeCommand('kubesim.apply', doc.uri);
    assert.match(lastOutput(a), new RegExp(`${ref.replace(/[.]/g, '\\.')} unchanged`));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }

  test('examples/big-pod.yaml: applied and unchanged, no diagnostics; a changed toleration, the Forbidden', async () => {
    const text = readFileSync(repoPath('examples', 'big-pod.yaml'), 'utf8');
    const line = lineOf(text, '    - key: dedicated');
    await check(text, 'pod/hungry', [
      {
        from: 'value: batch',
        to: 'value: web',
        expect: () => [{ range: [line, 4, line + 3, 24], severity: 'Error', code: 'Forbidden', message: 'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds' }],
      },
    ]);
  });

  test("Deployment and Service (examples/web.yaml): a changed selector, a changed clusterIP", async () => {
    const text = readFileSync(repoPath('examples', 'web.yaml'), 'utf8');
    const a = api();
    const doc = await openManifest(text);
    await vscode.commands.executeCommand('kubesim.apply', doc.uri);
    assert.equal(lastOutput(a), 'deployment.apps/web created\nservice/web created');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    const deployment = text.slice(0, text.indexOf('---\n'));
    const service = text.slice(text.indexOf('---\n') + 4);
    const selector = lineOf(deployment, '    matchLabels:');
    await checkApplied(deployment, 'deployment.apps/web', {
      from: '    matchLabels:\n      app: web\n',
      to: '    matchLabels:\n      app: shop\n',
      expect: (changed) => {
        const labels = lineOf(changed, '      labels:\n        app: web') + 1;
        return [
          { range: [labels, 8, labels, 16], severity: 'Error', code: 'Invalid value', message: 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`' },
          { range: [selector, 4, selector + 1, 15], severity: 'Error', code: 'Invalid value', message: 'spec.selector: Invalid value: {"matchLabels":{"app":"shop"}}: field is immutable' },
        ];
      },
    });
    const ip = lineOf(service, 'spec:') + 1;
    await checkApplied(service, 'service/web', {
      from: 'spec:\n',
      to: 'spec:\n  clusterIP: 10.96.200.200\n',
      expect: () => [{ range: [ip, 13, ip, 26], severity: 'Error', code: 'Invalid value', message: 'spec.clusterIPs[0]: Invalid value: ["10.96.200.200"]: may not change once set' }],
    });
  });

  test('Job, StatefulSet, ConfigMap: applied and unchanged, no diagnostics; each forbidden change, its update error', async () => {
    await check(JOB, 'job.batch/pi', [{ from: 'perl:5.34', to: 'perl:5.36', expect: async (changed) => [await jobTemplateError(changed)] }]);
    const spec = lineOf(STATEFULSET, '  serviceName');
    await check(STATEFULSET, 'statefulset.apps/db', [
      {
        from: 'serviceName: db',
        to: 'serviceName: db2',
        expect: () => [
          {
            range: [spec, 2, spec + 12, 28],
            severity: 'Error',
            code: 'Forbidden',
            message: "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
          },
        ],
      },
    ]);
    const data = lineOf(CONFIGMAP, '  mode:');
    await check(CONFIGMAP, 'configmap/settings', [
      { from: 'mode: fast', to: 'mode: slow', expect: () => [{ range: [data, 2, data, 12], severity: 'Error', code: 'Forbidden', message: 'data: Forbidden: field is immutable when `immutable` is set' }] },
    ]);
  });

  test('an unknown field is an error whatever kubesim.fieldValidation says: Apply (server-side) refuses it', async () => {
    const config = vscode.workspace.getConfiguration('kubesim');
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\n  lables:\n    app: web\n';
    const expected: DiagnosticSummary = {
      range: [4, 2, 4, 8],
      severity: 'Error',
      code: 'Unknown field',
      message: 'failed to create typed patch object (default/flags; /v1, Kind=ConfigMap): .metadata.lables: field not declared in schema',
    };
    try {
      for (const mode of ['Warn', 'Strict']) {
        await config.update('fieldValidation', mode, vscode.ConfigurationTarget.Global);
        const doc = await openManifest(text);
        const [d] = await kubesimDiagnostics(doc.uri, (ds) => ds.length > 0);
        assert.deepEqual(summary(d!), expected, mode);
        await vscode.commands.executeCommand('kubesim.dryRun', doc.uri);
        assert.equal(lastOutput(api()), `Error from server: error when serverside-apply "${doc.uri.path}": ${expected.message}`);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
    } finally {
      await config.update('fieldValidation', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

/** Like check(), for a document already applied (with others, from one file). */
async function checkApplied(text: string, ref: string, change: { from: string; to: string; expect: (changed: string) => DiagnosticSummary[] }): Promise<void> {
  const a = api();
  const doc = await openManifest(text);
  await kubesimDiagnostics(doc.uri, (d) => d.length === 0);
  await vscode.commands.executeCommand('kubesim.dryRun', doc.uri);
  assert.equal(lastOutput(a), `${ref} unchanged (server dry run)`);
  const changed = text.replace(change.from, change.to);
  await setText(doc, changed);
  const expected = change.expect(changed);
  const got = await kubesimDiagnostics(doc.uri, (d) => d.length >= expected.length);
  assert.deepEqual(got.map(summary), expected);
  await vscode.commands.executeCommand('kubesim.dryRun', doc.uri);
  const answer = lastOutput(a);
  for (const d of expected) assert.ok(answer.includes(d.message), `the dry run answers what the editor shows:\n${answer}\n${d.message}`);
  await setText(doc, text);
  await kubesimDiagnostics(doc.uri, (d) => d.length === 0);
  await settled();
  assert.deepEqual(vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'kubesim').map(summary), []);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

/** The Job's template error names its generated labels, with the live Job's uid. */
async function jobTemplateError(changed: string): Promise<DiagnosticSummary> {
  // The live Job as kubectl get -o yaml shows it (read in the engine worker): metadata.uid is indented once.
  const live = await api().session.current!.objectYaml({ group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespace: 'default', name: 'pi' });
  const uid = /^ {2}uid: (\S+)$/m.exec(live)?.[1];
  assert.ok(uid, live);
  const line = lineOf(changed, '    spec:');
  return {
    range: [line, 4, line + 5, 44],
    severity: 'Error',
    code: 'Invalid value',
    message: `spec.template: Invalid value: {"metadata":{"labels":{"batch.kubernetes.io/controller-uid":"${uid}","batch.kubernetes.io/job-name":"pi","controller-uid":"${uid}","job-name":"pi"}},"spec":{"containers":[{"command":["perl","-e","print 1"],"image":"perl:5.36","imagePullPolicy":"IfNotPresent","name":"pi","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Never","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}: field is immutable`,
  };
}
