/**
 * apiregistration.k8s.io/v1 APIServices as kube-apiserver serves them: a local APIService for
 * every built-in group-version at start, one per served version of each CRD (kept in step and
 * removed with it), local ones created Available, and the table kubectl get prints.
 */
import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { harness, type Harness } from './harness';
import { printTable, printerFor, renderTable } from '../../../src/engine/printers';

const APIS = { verb: 'list', group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices' } as const;

describe('apiregistration.k8s.io APIServices', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
    await h.clock.settle({ maxDuration: 1000 });
  });
  afterEach(() => h.close());

  const names = async (): Promise<string[]> => ((await h.req(APIS)).body.items as JsonObject[]).map((i) => String((i.metadata as JsonObject).name));

  it('registers a local APIService for every served built-in group-version, with kube-apiserver priorities', async () => {
    assert.deepEqual(await names(), [
      'v1.',
      'v1.admissionregistration.k8s.io',
      'v1.apiextensions.k8s.io',
      'v1.apps',
      'v1.authentication.k8s.io',
      'v1.authorization.k8s.io',
      'v1.autoscaling',
      'v1.batch',
      'v1.coordination.k8s.io',
      'v1.discovery.k8s.io',
      'v1.events.k8s.io',
      'v1.networking.k8s.io',
      'v1.policy',
      'v1.rbac.authorization.k8s.io',
      'v1.scheduling.k8s.io',
      'v1.storage.k8s.io',
      'v2.autoscaling',
    ]);
    const apps = await h.req({ ...APIS, verb: 'get', name: 'v1.apps' });
    assert.deepEqual(apps.body.spec, { group: 'apps', groupPriorityMinimum: 17800, version: 'v1', versionPriority: 15 });
    assert.deepEqual((apps.body.metadata as JsonObject).labels, { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' });
    const [available] = (apps.body.status as JsonObject).conditions as JsonObject[];
    assert.deepEqual({ ...available, lastTransitionTime: undefined }, { type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available', lastTransitionTime: undefined });
  });

  it('registers the served versions of a CRD and removes them with it', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
          { name: 'v1beta1', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
        ],
      },
    };
    await h.create(crd);
    await h.clock.settle({ maxDuration: 1000 });
    const got = await h.req({ ...APIS, verb: 'get', name: 'v1.example.com' });
    assert.equal(got.code, 200);
    assert.deepEqual(got.body.spec, { group: 'example.com', groupPriorityMinimum: 1000, version: 'v1', versionPriority: 100 });
    assert.deepEqual((got.body.metadata as JsonObject).labels, { 'kube-aggregator.kubernetes.io/automanaged': 'true' });
    assert.equal((await h.req({ ...APIS, verb: 'get', name: 'v1beta1.example.com' })).code, 404);
    await h.req({ verb: 'delete', group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', name: 'widgets.example.com' });
    await h.clock.settle({ maxDuration: 60_000 });
    assert.equal((await h.req({ ...APIS, verb: 'get', name: 'v1.example.com' })).code, 404);
  });

  it('prints NAME, SERVICE, AVAILABLE and AGE as kube-aggregator does', async () => {
    const remote: JsonObject = {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true, service: { namespace: 'kube-system', name: 'metrics-server' } },
    };
    const created = await h.req({ ...APIS, verb: 'create', body: { object: remote } });
    assert.equal(created.code, 201);
    assert.equal(((created.body.spec as JsonObject).service as JsonObject).port, 443);
    assert.deepEqual(created.body.status, {});
    const items = (await h.req(APIS)).body.items as never[];
    const text = renderTable(printTable(printerFor('apiregistration.k8s.io', 'apiservices'), items.filter((i: JsonObject) => ['v1.', 'v1beta1.metrics.k8s.io'].includes(String((i.metadata as JsonObject).name))), h.clock.now()));
    assert.match(text, /^NAME +SERVICE +AVAILABLE +AGE\nv1\. +Local +True +\S+\nv1beta1\.metrics\.k8s\.io +kube-system\/metrics-server +Unknown +\S+\n?$/);
  });
});
