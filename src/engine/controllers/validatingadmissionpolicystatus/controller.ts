/**
 * The ValidatingAdmissionPolicy status controller (pkg/controller/
 * validatingadmissionpolicystatus): each policy whose generation its status has not observed is
 * type-checked against the schemas of the kinds it matches, and its status gets
 * observedGeneration and typeChecking.expressionWarnings (none: an empty typeChecking).
 *
 * Runs as system:serviceaccount:kube-system:validatingadmissionpolicy-status-controller with
 * one worker.
 */
import type { ResourceRegistry } from '../../api/registry';
import type { GroupVersionResource, KubeObject } from '../../api/types';
import { typeCheckPolicy } from '../../apiserver/admission/policy/typechecking';
import type { Controller, ReconcileContext } from '../../client/controller';
import type { SharedIndexInformer } from '../../client/informer';
import { controlLoop, type ControllerDeps } from '../util/deps';

export const VAP_STATUS_CONTROLLER_ACCOUNT = 'validatingadmissionpolicy-status-controller';

const POLICIES: GroupVersionResource = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies' };

const observed = (p: KubeObject): number | undefined => (p.status as { observedGeneration?: number } | undefined)?.observedGeneration;

export class ValidatingAdmissionPolicyStatusController {
  readonly loop: Controller;
  private readonly policies: SharedIndexInformer;

  constructor(
    deps: ControllerDeps,
    private readonly registry: ResourceRegistry,
  ) {
    this.policies = deps.informers.informerFor(POLICIES);
    this.loop = controlLoop(deps, {
      name: 'validatingadmissionpolicy-status',
      workers: 1,
      informers: [this.policies],
      sync: (key, ctx) => this.sync(key, ctx),
    });
    const changed = (p: KubeObject): void => {
      if (observed(p) !== p.metadata.generation) this.loop.enqueueObject(p);
    };
    this.policies.addEventHandler({ onAdd: changed, onUpdate: (_old, p) => changed(p) });
  }

  run(): Promise<void> {
    return this.loop.run();
  }

  shutDown(): void {
    this.loop.shutDown();
  }

  private async sync(name: string, ctx: ReconcileContext): Promise<void> {
    const policy = this.policies.indexer.getByName('', name);
    if (!policy || observed(policy) === policy.metadata.generation) return;
    const warnings = typeCheckPolicy(policy, this.registry);
    ctx.observe(warnings.length === 0 ? 'type checked: no warnings' : `type checked: ${warnings.length} warning(s)`);
    const status = { ...((policy.status as Record<string, unknown> | undefined) ?? {}), observedGeneration: policy.metadata.generation, typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {} };
    await ctx.client.resource(POLICIES).updateStatus({ ...policy, status } as KubeObject);
  }
}
