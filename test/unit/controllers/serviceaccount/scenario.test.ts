/** New namespaces get the default ServiceAccount and kube-root-ca.crt; both come back when removed. */
import { strict as assert } from 'node:assert';
import { controllerHarness } from '../../../support/controller-harness';
import { ServiceAccountsController, SERVICE_ACCOUNT_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/serviceaccount/controller';
import { DESCRIPTION, RootCACertPublisher, ROOT_CA_PUBLISHER_ACCOUNT } from '../../../../src/engine/controllers/rootcacertpublisher/publisher';
import { SIMULATED_ROOT_CA } from '../../../../src/engine/controllers/rootcacertpublisher/root-ca';
import { CONFIGMAPS, NAMESPACES, PODS, SERVICEACCOUNTS } from '../../../../src/engine/client/resources';
import { deepCopy } from '../../../../src/engine/client/clone';
import { isForbidden } from '../../../../src/engine/client/errors';
import type { KubeObject } from '../../../../src/engine/api/types';

describe('controllers/serviceaccount and rootcacertpublisher scenario', () => {
  it('default ServiceAccount and kube-root-ca.crt in every namespace, restored after deletion or edits', async () => {
    const h = await controllerHarness();
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    await h.admin.resource(NAMESPACES).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } });
    await assert.rejects(h.admin.resource(PODS, 'demo').create(pod), (err: unknown) => {
      assert.ok(isForbidden(err));
      assert.equal((err as Error).message, 'pods "p" is forbidden: error looking up service account demo/default: serviceaccount "default" not found');
      return true;
    });
    h.start(new ServiceAccountsController(h.deps(SERVICE_ACCOUNT_CONTROLLER_ACCOUNT)), new RootCACertPublisher(h.deps(ROOT_CA_PUBLISHER_ACCOUNT), SIMULATED_ROOT_CA));
    await h.clock.settle();
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'demo']) {
      assert.ok(await h.admin.resource(SERVICEACCOUNTS, ns).get('default'), ns);
      const cm = (await h.admin.resource(CONFIGMAPS, ns).get('kube-root-ca.crt')) as KubeObject & { data: Record<string, string> };
      assert.deepEqual(cm.data, { 'ca.crt': SIMULATED_ROOT_CA });
      assert.equal(cm.metadata.annotations?.['kubernetes.io/description'], DESCRIPTION);
    }
    assert.match(SIMULATED_ROOT_CA, /^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n$/);
    await h.admin.resource(PODS, 'demo').create(pod);

    await h.admin.resource(SERVICEACCOUNTS, 'demo').delete('default');
    const cm = deepCopy(await h.admin.resource(CONFIGMAPS, 'demo').get('kube-root-ca.crt')) as KubeObject & { data: Record<string, string> };
    cm.data = { 'ca.crt': 'tampered' };
    await h.admin.resource(CONFIGMAPS, 'demo').update(cm);
    await h.clock.settle();
    assert.ok(await h.admin.resource(SERVICEACCOUNTS, 'demo').get('default'));
    assert.deepEqual(((await h.admin.resource(CONFIGMAPS, 'demo').get('kube-root-ca.crt')) as KubeObject & { data: object }).data, { 'ca.crt': SIMULATED_ROOT_CA });
    const writers = new Set(h.trace.records().flatMap((r) => (r.type === 'api.request' && r.verb === 'create' && (r.resource === 'serviceaccounts' || r.resource === 'configmaps') ? [`${r.user} ${r.code}`] : [])));
    assert.deepEqual([...writers].sort(), [
      'system:serviceaccount:kube-system:root-ca-cert-publisher 201',
      'system:serviceaccount:kube-system:service-account-controller 201',
    ]);
    await h.close();
  });
});
