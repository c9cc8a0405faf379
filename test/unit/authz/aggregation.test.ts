import { strict as assert } from 'node:assert';
import { aggregateClusterRoles, aggregateRulesFor } from '../../../src/engine/apiserver/authz/rbac';
import { clusterRole } from './memory-reader';

const rule = (resource: string, verb = 'get') => ({ verbs: [verb], apiGroups: [''], resources: [resource] });

describe('clusterrole aggregation', () => {
  const aggregated = (name: string, ...labels: Record<string, string>[]) => ({
    ...clusterRole(name, []),
    aggregationRule: { clusterRoleSelectors: labels.map((matchLabels) => ({ matchLabels })) },
  });

  it('takes the rules of matching roles, selector by selector, roles in name order, each rule once', () => {
    const roles = [
      clusterRole('b', [rule('pods'), rule('services')], { a: 'true' }),
      clusterRole('a', [rule('services'), rule('secrets')], { a: 'true' }),
      clusterRole('c', [rule('configmaps'), rule('pods')], { c: 'true' }),
      clusterRole('d', [rule('nodes')], { other: 'true' }),
      aggregated('agg', { c: 'true' }, { a: 'true' }),
    ];
    assert.deepEqual(aggregateRulesFor(roles[4]!, roles), { ok: true, value: [rule('configmaps'), rule('pods'), rule('services'), rule('secrets')] });
  });

  it('skips the role itself, compares rules with empty lists equal to absent ones', () => {
    const self = { ...aggregated('self', { x: 'true' }), metadata: { name: 'self', labels: { x: 'true' } }, rules: [rule('pods')] };
    const other = clusterRole('other', [rule('pods'), { ...rule('pods'), resourceNames: [] }], { x: 'true' });
    assert.deepEqual(aggregateRulesFor(self, [self, other]), { ok: true, value: [rule('pods')] });
  });

  it('is undefined without an aggregation rule and an error for a bad selector', () => {
    assert.equal(aggregateRulesFor(clusterRole('plain', []), []), undefined);
    const bad = { ...clusterRole('bad', []), aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'Near' }] }] } };
    const r = aggregateRulesFor(bad, [bad]);
    assert.deepEqual(r, { ok: false, error: '"Near" is not a valid label selector operator' });
  });

  it('settles chains: admin gathers edit, which gathers view', () => {
    const roles = aggregateClusterRoles([
      { ...aggregated('admin', { 'to-admin': 'true' }) },
      { ...aggregated('edit', { 'to-edit': 'true' }), metadata: { name: 'edit', labels: { 'to-admin': 'true' } } },
      { ...aggregated('view', { 'to-view': 'true' }), metadata: { name: 'view', labels: { 'to-edit': 'true' } } },
      clusterRole('to-admin', [rule('roles', 'create')], { 'to-admin': 'true' }),
      clusterRole('to-edit', [rule('pods', 'create')], { 'to-edit': 'true' }),
      clusterRole('to-view', [rule('pods')], { 'to-view': 'true' }),
    ]);
    const rulesOf = (n: string) => roles.find((r) => r.metadata.name === n)!.rules;
    assert.deepEqual(rulesOf('view'), [rule('pods')]);
    assert.deepEqual(rulesOf('edit'), [rule('pods', 'create'), rule('pods')]);
    // Selected by name order: "edit" before "to-admin".
    assert.deepEqual(rulesOf('admin'), [rule('pods', 'create'), rule('pods'), rule('roles', 'create')]);
  });
});
