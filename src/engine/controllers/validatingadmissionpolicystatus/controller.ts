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
import type { ReconcileContext } from '../../client/controller';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';

export const VAP_STATUS_CONTROLLER_ACCOUNT = 'validatingadmissionpolicy-status-controller';

const POLICIES: GroupVersionResource = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies' };

const observed = (p: KubeObject): number | undefined => (p.status as { observedGeneration?: number } | undefined)?.observedGeneration;

export class ValidatingAdmissionPolicyStatusController extends LoopController {
  private readonly policies = this.informer(POLICIES);

  constructor(
    deps: ControllerDeps,
    private readonly registry: ResourceRegistry,
  ) {
    super(deps, { name: 'validatingadmissionpolicy-status', workers: 1 });
    const changed = (p: KubeObject): void => {
      if (observed(p) !== p.metadata.generation) this.loop.enqueueObject(p);
    };
    this.policies.addEventHandler({ onAdd: changed, onUpdate: (_old, p) => changed(p) });
  }

  protected async sync(name: string, ctx: ReconcileContext): Promise<void> {
    const policy = this.policies.indexer.getByName('', name);
    if (!policy || observed(policy) === policy.metadata.generation) return;
    const warnings = typeCheckPolicy(policy, this.registry);
    ctx.observe(warnings.length === 0 ? 'type checked: no warnings' : `type checked: ${warnings.length} warning(s)`);
    const status = { ...((policy.status as Record<string, unknown> | undefined) ?? {}), observedGeneration: policy.metadata.generation, typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {} };
    await ctx.client.resource(POLICIES).updateStatus({ ...policy, status } as KubeObject);
  }
}
