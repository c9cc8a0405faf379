/** ClusterRole aggregation as a control loop: rules follow the roles the selectors match. */
import { strict as assert } from 'node:assert';
import { controllerHarness } from '../../../support/controller-harness';
import { ClusterRoleAggregationController, CLUSTERROLE_AGGREGATION_ACCOUNT } from '../../../../src/engine/controllers/clusterroleaggregation/controller';
import type { KubeObject } from '../../../../src/engine/api/types';

const CLUSTERROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };

describe('controllers/clusterroleaggregation scenario', () => {
  it('an aggregated role collects the rules of matching roles, and follows their changes', async () => {
    const h = await controllerHarness();
    const roles = h.admin.resource(CLUSTERROLES);
    h.start(new ClusterRoleAggregationController(h.deps(CLUSTERROLE_AGGREGATION_ACCOUNT)));
    await roles.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'monitoring' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-monitoring': 'true' } }] } } as KubeObject);
    await roles.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'monitoring-endpoints', labels: { 'example.com/aggregate-to-monitoring': 'true' } },
      rules: [{ apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] }],
    } as KubeObject);
    await h.clock.settle();
    let role = await roles.get('monitoring');
    assert.deepEqual(role.rules, [{ apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] }]);
    assert.ok(role.metadata.managedFields?.some((f) => f.manager === 'clusterrole-aggregation-controller' && f.operation === 'Apply'));
    await roles.delete('monitoring-endpoints');
    await h.clock.settle();
    role = await roles.get('monitoring');
    assert.equal((role.rules as unknown[] | undefined)?.length ?? 0, 0);
    const admin = await roles.get('admin');
    assert.ok((admin.rules as unknown[]).length > 10, 'the bootstrap aggregated roles are already settled');
    await h.close();
  });
});
