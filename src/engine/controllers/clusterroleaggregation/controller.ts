/**
 * The ClusterRole aggregation controller (pkg/controller/clusterroleaggregation): a ClusterRole
 * with an aggregationRule carries the rules of the ClusterRoles its selectors match
 * (aggregateRulesFor), kept current by server-side apply of its rules with the field manager
 * "clusterrole-aggregation-controller". Any ClusterRole change queues every aggregated role.
 *
 * Runs as system:serviceaccount:kube-system:clusterrole-aggregation-controller.
 */
import { SelectorError } from '../../api/labels';
import type { GroupVersionResource, KubeObject } from '../../api/types';
import { aggregateRulesFor, rulesEqual } from '../../apiserver/authz/rbac';
import { rulesOf, toPolicyRule } from '../../apiserver/authz/rbac/types';
import type { Controller, ReconcileContext } from '../../client/controller';
import { deletedObject, type SharedIndexInformer } from '../../client/informer';
import { controlLoop, type ControllerDeps } from '../util/deps';

export const CLUSTERROLE_AGGREGATION_ACCOUNT = 'clusterrole-aggregation-controller';

const CLUSTERROLES: GroupVersionResource = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };

export class ClusterRoleAggregationController {
  readonly loop: Controller;
  private readonly roles: SharedIndexInformer;

  constructor(deps: ControllerDeps) {
    this.roles = deps.informers.informerFor(CLUSTERROLES);
    this.loop = controlLoop(deps, {
      name: 'clusterrole-aggregation',
      workers: 5,
      informers: [this.roles],
      sync: (key, ctx) => this.sync(key, ctx),
    });
    const enqueueAggregated = (because: KubeObject): void => {
      for (const role of this.roles.indexer.list()) if (role.aggregationRule) this.loop.enqueue(role.metadata.name ?? '', because);
    };
    this.roles.addEventHandler({
      onAdd: enqueueAggregated,
      onUpdate: (old, role) => old !== role && enqueueAggregated(role),
      onDelete: (obj) => enqueueAggregated(deletedObject(obj)),
    });
  }

  run(): Promise<void> {
    return this.loop.run();
  }

  shutDown(): void {
    this.loop.shutDown();
  }

  private async sync(name: string, ctx: ReconcileContext): Promise<void> {
    const role = this.roles.indexer.getByName('', name);
    if (!role) return;
    const rules = aggregateRulesFor(role, this.roles.indexer.list());
    if (rules === undefined) return;
    if (rules instanceof SelectorError) throw rules;
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
