/**
 * The editor never contradicts the API server: a live cluster (the extension's ClusterHost)
 * feeds the language server's mirror as the extension does, the file is applied with the Apply
 * command's request, and its diagnostics are what that Apply answers: nothing for an applied,
 * unchanged file of any kind; the update error, at its field, for a change the API server
 * forbids.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver';
import { ClusterHost } from '../../../src/extension/cluster-host';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../../../src/extension/settings';
import type { WallClock } from '../../../src/engine/pacer';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import type { FieldValidation } from '../../../src/engine/apiserver/decode';
import { MirrorCluster } from '../../../src/server/mirror/mirror-cluster';
import { FileValidator } from '../../../src/server/validation/file-validator';
import { CONFIGMAP, JOB, lineOf, STATEFULSET } from '../../support/apply-manifests';

const still: WallClock = { now: () => 0, after: () => () => undefined };
// The wall clock stands still (the tests move virtual time themselves), so requests must take
// none: with the latency model they would wait for a Pacer that never plays.
const settings: KubeSimSettings = { ...DEFAULT_SETTINGS, nodes: { ...DEFAULT_SETTINGS.nodes, count: 2 }, etcd: { ...DEFAULT_SETTINGS.etcd, latency: 'instant' } };
const BIG_POD = readFileSync(join(__dirname, '../../../examples/big-pod.yaml'), 'utf8');
const WEB = readFileSync(join(__dirname, '../../../examples/web.yaml'), 'utf8');


type Row = [line: number, char: number, severity: number, message: string];
const rows = (ds: Diagnostic[]): Row[] => ds.map((d) => [d.range.start.line, d.range.start.character, d.severity!, d.message]);

describe('server: diagnostics are what the Apply command answers', function () {
  this.timeout(120_000);
  let host: ClusterHost;
  let mirror: MirrorCluster;
  let file: FileValidator;

  before(async () => {
    mirror = await MirrorCluster.create();
    host = await ClusterHost.start({ settings, mirror: (p) => void mirror.sync(p), onError: (err) => assert.fail(String(err)), wall: still });
  });
  after(async () => {
    await host.dispose();
    await mirror.close();
  });
  beforeEach(() => (file = new FileValidator('manifest.yaml', mirror)));
  afterEach(() => file.dispose());

  /** Applies as the Apply command does, lets the controllers work, and waits for the mirror to catch up. */
  async function apply(text: string): Promise<string[]> {
    const results = await host.apply('manifest.yaml', text);
    await host.cluster.advance(20_000);
    await settle();
    return results.map((r) => r.message);
  }
  async function settle(): Promise<void> {
    // The feed batches watch events every 150 ms.
    await new Promise((r) => setTimeout(r, 400));
    await mirror.state();
  }
  const diagnostics = (text: string, fieldValidation: FieldValidation = 'Strict') => file.validate(text, { user: ADMIN_USER, fieldValidation }, () => true);
  const dryRun = async (text: string) => (await host.apply('manifest.yaml', text, true)).map((r) => r.message);

  it('examples/big-pod.yaml: applied and unchanged, no diagnostics, as re-applying answers unchanged', async () => {
    assert.deepEqual(await apply(BIG_POD), ['pod/hungry created']);
    assert.deepEqual(await dryRun(BIG_POD), ['pod/hungry unchanged (server dry run)']);
    assert.deepEqual(rows(await diagnostics(BIG_POD)), []);
  });

  it('an applied, unchanged file has no diagnostics: Deployment and Service, Job, StatefulSet, ConfigMap', async () => {
    const text = [WEB, JOB, STATEFULSET, CONFIGMAP].join('---\n');
    assert.deepEqual(await apply(text), ['deployment.apps/web created', 'service/web created', 'job.batch/pi created', 'statefulset.apps/db created', 'configmap/settings created']);
    assert.deepEqual(await dryRun(text), [
      'deployment.apps/web unchanged (server dry run)',
      'service/web unchanged (server dry run)',
      'job.batch/pi unchanged (server dry run)',
      'statefulset.apps/db unchanged (server dry run)',
      'configmap/settings unchanged (server dry run)',
    ]);
    assert.deepEqual(rows(await diagnostics(text)), []);
  });

  it("a pod's changed toleration: the API server's Forbidden, at spec.tolerations", async () => {
    const changed = BIG_POD.replace('value: batch', 'value: web');
    const [answer] = await dryRun(changed);
    assert.equal(answer, 'The Pod "hungry" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds');
    assert.deepEqual(rows(await diagnostics(changed)), [[lineOf(BIG_POD, '    - key: dedicated'), 4, 1, 'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']]);
  });

  it("a Deployment's changed selector: field is immutable, at spec.selector", async () => {
    const changed = WEB.replaceAll('app: web', 'app: shop');
    const [answer] = await dryRun(changed);
    const error = 'spec.selector: Invalid value: {"matchLabels":{"app":"shop"}}: field is immutable';
    assert.equal(answer, `The Deployment "web" is invalid: ${error}`);
    const deployment = changed.slice(0, changed.indexOf('---'));
    assert.deepEqual(rows(await diagnostics(deployment)), [[lineOf(deployment, '    matchLabels:'), 4, 1, error]]);
  });

  it("a Service's changed clusterIP: the API server's update error, at spec.clusterIP", async () => {
    const live = host.view.get('services', 'default/web');
    const ip = String((live?.object.spec as { clusterIP?: string } | undefined)?.clusterIP);
    assert.match(ip, /^10\./);
    assert.notEqual(ip, '10.96.200.200');
    const service = WEB.slice(WEB.indexOf('---\n') + 4).replace('spec:\n', 'spec:\n  clusterIP: 10.96.200.200\n');
    const error = 'spec.clusterIPs[0]: Invalid value: ["10.96.200.200"]: may not change once set';
    assert.deepEqual(await dryRun(service), [`The Service "web" is invalid: ${error}`]);
    // The manifest writes clusterIP; the server derives clusterIPs from it: the error is on the address.
    assert.deepEqual(rows(await diagnostics(service)), [[lineOf(service, '  clusterIP:'), 13, 1, error]]);
  });

  /** The diagnostics of a changed document: one per error of the Apply command's answer, each its text. */
  async function agrees(changed: string, kind: string, name: string): Promise<Row[]> {
    const [answer] = await dryRun(changed);
    const prefix = `The ${kind} "${name}" is invalid: `;
    assert.ok(answer!.startsWith(prefix), answer);
    const got = rows(await diagnostics(changed));
    assert.equal(got.map((r) => r[3]).join(', '), answer!.slice(prefix.length).replace(/^\[(.*)\]$/s, '$1'));
    return got;
  }

  it("a Job's changed template: field is immutable, with the live Job's uid in the text", async () => {
    const changed = JOB.replace('perl:5.34', 'perl:5.36');
    const got = await agrees(changed, 'Job', 'pi');
    assert.deepEqual(got.map(([line, char, severity]) => [line, char, severity]), [[lineOf(JOB, '    spec:'), 4, 1]]);
    const live = await host.adminClient.request({ verb: 'get', group: 'batch', version: 'v1', resource: 'jobs', namespace: 'default', name: 'pi' });
    const uid = (live.body.metadata as { uid: string }).uid;
    assert.ok(got[0]![3].includes(`"controller-uid":"${uid}"`), got[0]![3]);
  });

  it("a StatefulSet's changed serviceName, a ConfigMap's data: the update errors, on spec and data", async () => {
    const sts = await agrees(STATEFULSET.replace('serviceName: db', 'serviceName: db2'), 'StatefulSet', 'db');
    assert.deepEqual(sts.map(([line, char, severity]) => [line, char, severity]), [[lineOf(STATEFULSET, '  serviceName'), 2, 1]]);
    const cm = await agrees(CONFIGMAP.replace('mode: fast', 'mode: slow'), 'ConfigMap', 'settings');
    assert.deepEqual(cm, [[lineOf(CONFIGMAP, '  mode:'), 2, 1, 'data: Forbidden: field is immutable when `immutable` is set']]);
  });

  it('an unknown field is an error, as the Apply command refuses it whatever the field validation', async () => {
    const text = CONFIGMAP.replace('\ndata:', '\ndataa:\n  x: y\ndata:');
    const [answer] = await dryRun(text);
    const message = 'failed to create typed patch object (default/settings; /v1, Kind=ConfigMap): .dataa: field not declared in schema';
    assert.equal(answer, `Error from server: error when serverside-apply "manifest.yaml": ${message}`);
    for (const fv of ['Strict', 'Warn', 'Ignore'] as const) {
      const ds = await diagnostics(text, fv);
      assert.deepEqual(rows(ds), [[lineOf(text, 'dataa:'), 0, 1, message]], fv);
      assert.equal(ds[0]!.code, 'Unknown field');
      assert.deepEqual(ds[0]!.data, { field: 'dataa' });
    }
  });

  it('an unknown field inside a keyed list item is found by its key', async () => {
    const text = BIG_POD.replace('      image: nginx:1.27\n', '      image: nginx:1.27\n      imagePullPolicyy: Always\n');
    const message = 'failed to create typed patch object (default/hungry; /v1, Kind=Pod): .spec.containers[name="app"].imagePullPolicyy: field not declared in schema';
    assert.deepEqual(await dryRun(text), [`Error from server: error when serverside-apply "manifest.yaml": ${message}`]);
    const ds = await diagnostics(text);
    assert.deepEqual(rows(ds), [[lineOf(text, '      imagePullPolicyy'), 6, 1, message]]);
    assert.deepEqual(ds[0]!.data, { field: 'spec.containers[0].imagePullPolicyy' });
  });

  it('a document without a name gets the error the Apply command gives it', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: settings-\n';
    const [answer] = await dryRun(text);
    const ds = await diagnostics(text);
    assert.deepEqual(rows(ds), [[2, 0, 1, answer!.replace(/^error: /, '')]]);
  });
});
