/**
 * The ClusterRole aggregation controller (pkg/controller/clusterroleaggregation): a ClusterRole
 * with an aggregationRule carries the rules of the ClusterRoles its selectors match
 * (aggregateRulesFor), kept current by server-side apply of its rules with the field manager
 * "clusterrole-aggregation-controller". Any ClusterRole change queues every aggregated role.
 *
 * Runs as system:serviceaccount:kube-system:clusterrole-aggregation-controller.
 */
import type { GroupVersionResource, KubeObject } from '../../api/types';
import { aggregateRulesFor, rulesEqual } from '../../apiserver/authz/rbac';
import { rulesOf, toPolicyRule } from '../../apiserver/authz/rbac/types';
import type { ReconcileContext } from '../../client/controller';
import { deletedObject } from '../../client/informer';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';

export const CLUSTERROLE_AGGREGATION_ACCOUNT = 'clusterrole-aggregation-controller';

const CLUSTERROLES: GroupVersionResource = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };

export class ClusterRoleAggregationController extends LoopController {
  private readonly roles = this.informer(CLUSTERROLES);

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'clusterrole-aggregation', workers: 5 });
    const enqueueAggregated = (because: KubeObject): void => {
      for (const role of this.roles.indexer.list()) if (role.aggregationRule) this.loop.enqueue(role.metadata.name ?? '', because);
    };
    this.roles.addEventHandler({
      onAdd: enqueueAggregated,
      onUpdate: (old, role) => old !== role && enqueueAggregated(role),
      onDelete: (obj) => enqueueAggregated(deletedObject(obj)),
    });
  }

  protected async sync(name: string, ctx: ReconcileContext): Promise<void> {
    const role = this.roles.indexer.getByName('', name);
    if (!role) return;
    const aggregated = aggregateRulesFor(role, this.roles.indexer.list());
    if (aggregated === undefined) return;
    // A selector that does not parse fails the sync, which retries with backoff (the message is the selector's).
    if (!aggregated.ok) throw new Error(aggregated.error);
    const rules = aggregated.value;
    if (rulesEqual(rules, rulesOf(role))) {
      ctx.observe(`${rules.length} rules, up to date`);
      return;
    }
    ctx.observe(`${rules.length} aggregated rules`);
    await ctx.client.resource(CLUSTERROLES).apply(
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules: rules.map((r) => toPolicyRule(r)) } as KubeObject,
      { fieldManager: 'clusterrole-aggregation-controller', force: true },
    );
  }
}
