/**
 * The PodSecurity admission plugin (plugin/pkg/admission/security/podsecurity and
 * k8s.io/pod-security-admission/admission): validating only, on creates and updates of
 * namespaces, pods and the workload resources that carry pod templates.
 *
 * - Pods are held to their namespace's enforce policy (a refusal is a 403 with every failed
 *   check), and get the audit annotations and warn-policy warnings.
 * - Workload resources are never refused: they get the warn policy's warnings and the audit
 *   annotations, so `kubectl apply` of a Deployment says what its pods would violate.
 * - Namespaces: invalid policy labels are refused (422), and raising the enforce level warns
 *   about the existing pods that would violate it.
 */
import { forbiddenError, internalServerError, invalidError } from '../../../api/status';
import type { ErrorList } from '../../../api/field';
import { isObject, type KubeObject } from '../../../api/types';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import {
  AUDIT_LEVEL_LABEL,
  AUDIT_VERSION_LABEL,
  AUDIT_VIOLATIONS_ANNOTATION,
  compareLevels,
  ENFORCE_LEVEL_LABEL,
  ENFORCE_VERSION_LABEL,
  ENFORCED_POLICY_ANNOTATION,
  equivalentPolicy,
  EXEMPTION_REASON_ANNOTATION,
  fullyPrivileged,
  LABEL_PREFIX,
  LATEST,
  levelVersionString,
  policyToEvaluate,
  sameLevelVersion,
  sameVersion,
  WARN_LEVEL_LABEL,
  WARN_VERSION_LABEL,
  type LevelVersion,
  type Policy,
} from './api';
import { resolveConfiguration, validateConfiguration, type PodSecurityConfiguration, type ResolvedConfiguration } from './config';
import { defaultEvaluator, type Evaluator } from './registry';
import { extractPodSpec, hasPodSpec } from './pod-specs';
import type { PodView } from './pod';
import { aggregate, forbiddenDetail, type AggregateResult } from './result';
import { evaluatePodsInNamespace } from './namespace-pods';
import { own } from '../../../api/own';

const NAMESPACES = { group: '', resource: 'namespaces' };

/** NamespaceGetterFromListerAndClient: the informer's namespace, read live only when the informer does not have it. */
async function namespaceOf(ctx: AdmissionContext, name: string): Promise<KubeObject | undefined> {
  return ctx.reader.cached(NAMESPACES).find((n) => n.metadata.name === name) ?? (await ctx.reader.get(NAMESPACES, '', name));
}

/** Pod subresources that cannot change what the pod runs. */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

const labelsOf = (obj: KubeObject | undefined): Record<string, string> => {
  const labels = obj?.metadata?.labels;
  return isObject(labels) ? (labels as Record<string, string>) : {};
};

/** Only a changed image, or added or removed containers, can change a pod's verdict. */
function significantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const oldSpec = isObject(old.spec) ? old.spec : {};
  const list = (s: Record<string, unknown>, k: string): Record<string, unknown>[] => (Array.isArray(own(s, k)) ? (own(s, k) as Record<string, unknown>[]) : []);
  for (const k of ['containers', 'initContainers']) {
    const a = list(spec, k);
    const b = list(oldSpec, k);
    if (a.length !== b.length) return true;
    if (a.some((c, i) => c.image !== b[i]!.image)) return true;
  }
  const oldEphemeral = list(oldSpec, 'ephemeralContainers');
  for (const c of list(spec, 'ephemeralContainers')) {
    const o = oldEphemeral.find((x) => x.name === c.name);
    if (!o || o.image !== c.image) return true;
  }
  return false;
}

export class PodSecurity {
  private readonly config: ResolvedConfiguration;

  constructor(
    config: PodSecurityConfiguration = {},
    private readonly evaluator: Evaluator = defaultEvaluator(),
  ) {
    const errs = validateConfiguration(config);
    if (errs.length > 0) throw new Error(`PodSecurity invalid: ${errs.map((e) => e.message).join(', ')}`);
    this.config = resolveConfiguration(config);
  }

  get defaults(): Policy {
    return this.config.defaults;
  }

  policyFor(labels: Readonly<Record<string, string>> | undefined): { policy: Policy; errors: ErrorList } {
    return policyToEvaluate(labels, this.config.defaults);
  }

  evaluate(lv: LevelVersion, pod: PodView): AggregateResult {
    return aggregate(this.evaluator.evaluate(lv, pod));
  }

  private exemptNamespace(ns: string): boolean {
    return ns !== '' && this.config.exemptions.namespaces.includes(ns);
  }

  private exemptUser(name: string): boolean {
    return name !== '' && this.config.exemptions.usernames.includes(name);
  }

  exemptRuntimeClass(spec: Record<string, unknown>): boolean {
    const rc = spec.runtimeClassName;
    return typeof rc === 'string' && rc !== '' && this.config.exemptions.runtimeClasses.includes(rc);
  }

  async validate(a: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
    if (a.group === '' && a.resource === 'namespaces') return this.validateNamespace(a, ctx);
    if (a.group === '' && a.resource === 'pods') return this.validatePod(a, ctx);
    return this.validatePodController(a, ctx);
  }

  private annotate(a: AdmissionAttributes, annotations: Record<string, string>): void {
    for (const [k, v] of Object.entries(annotations)) a.annotate(LABEL_PREFIX + k, v);
  }

  private async validateNamespace(a: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
    if (a.subresource !== '' || !a.object) return;
    const labels = labelsOf(a.object);
    const name = a.object.metadata.name ?? '';
    const { policy, errors } = this.policyFor(labels);
    // kube-apiserver's request info names a namespace's own namespace only on requests to it:
    // a create (POST /api/v1/namespaces) has none, so exemption warnings come on updates.
    const requestNamespace = a.operation === 'CREATE' ? '' : a.name;
    if (a.operation === 'CREATE') {
      if (errors.length > 0) throw invalidError({ group: '', name: 'Namespace' }, a.name, errors);
      if (this.exemptNamespace(requestNamespace)) this.warnExempt(a, name, policy, labels);
      return;
    }
    if (a.operation !== 'UPDATE') return;
    const old = this.policyFor(labelsOf(a.oldObject));
    if (errors.length > 0 && (old.errors.length === 0 || !sameErrors(errors, old.errors))) {
      throw invalidError({ group: '', name: 'Namespace' }, a.name, errors);
    }
    const enforce = policy.enforce;
    if (sameLevelVersion(enforce, old.policy.enforce)) return;
    if (enforce.level === 'privileged') return;
    if (sameVersion(enforce.version, old.policy.enforce.version) && compareLevels(enforce.level, old.policy.enforce.level) < 1) return;
    if (this.exemptNamespace(requestNamespace)) {
      this.warnExempt(a, name, policy, labels);
      return;
    }
    for (const w of await evaluatePodsInNamespace(this, ctx.reader, name, enforce)) a.warn(w);
  }

  /** exemptNamespaceWarning: an exempt namespace that sets a policy is told it is ignored. */
  private warnExempt(a: AdmissionAttributes, name: string, policy: Policy, labels: Record<string, string>): void {
    if (fullyPrivileged(policy) || equivalentPolicy(policy, this.config.defaults)) return;
    const parts: string[] = [];
    const has = (k: string): boolean => Object.hasOwn(labels, k);
    if (policy.enforce.level !== 'privileged' && (has(ENFORCE_LEVEL_LABEL) || has(ENFORCE_VERSION_LABEL))) parts.push(`enforce=${levelVersionString(policy.enforce)}`);
    if (policy.audit.level !== 'privileged' && (has(AUDIT_LEVEL_LABEL) || has(AUDIT_VERSION_LABEL))) parts.push(`audit=${levelVersionString(policy.audit)}`);
    if (policy.warn.level !== 'privileged' && (has(WARN_LEVEL_LABEL) || has(WARN_VERSION_LABEL))) parts.push(`warn=${levelVersionString(policy.warn)}`);
    a.warn(`namespace ${JSON.stringify(name)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`);
  }

  private async validatePod(a: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
    if (IGNORED_POD_SUBRESOURCES.has(a.subresource)) return;
    if (this.exemptNamespace(a.namespace)) return this.annotate(a, { [EXEMPTION_REASON_ANNOTATION]: 'namespace' });
    if (this.exemptUser(a.user.username)) return this.annotate(a, { [EXEMPTION_REASON_ANNOTATION]: 'user' });
    const ns = await namespaceOf(ctx, a.namespace);
    if (!ns) {
      this.annotate(a, { error: `failed to lookup namespace "${a.namespace}"` });
      throw forbiddenInternal(a.namespace);
    }
    const { policy, errors } = this.policyFor(labelsOf(ns));
    if (errors.length === 0 && fullyPrivileged(policy)) {
      return this.annotate(a, { [ENFORCED_POLICY_ANNOTATION]: levelVersionString({ level: 'privileged', version: LATEST }) });
    }
    if (!a.object) return;
    if (a.operation === 'UPDATE' && a.oldObject && !significantPodUpdate(a.object, a.oldObject)) return;
    const pod: PodView = { metadata: a.object.metadata, spec: isObject(a.object.spec) ? a.object.spec : {} };
    this.evaluatePod(a, policy, errors, pod, true);
  }

  private async validatePodController(a: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
    if (a.subresource !== '') return;
    if (this.exemptNamespace(a.namespace)) return this.annotate(a, { [EXEMPTION_REASON_ANNOTATION]: 'namespace' });
    if (this.exemptUser(a.user.username)) return this.annotate(a, { [EXEMPTION_REASON_ANNOTATION]: 'user' });
    const ns = await namespaceOf(ctx, a.namespace);
    if (!ns) return this.annotate(a, { error: `failed to lookup namespace "${a.namespace}": namespaces "${a.namespace}" not found` });
    const { policy, errors } = this.policyFor(labelsOf(ns));
    if (errors.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return;
    if (!a.object) return;
    const pod = extractPodSpec(a.group, a.resource, a.object);
    if (!pod) return;
    this.evaluatePod(a, policy, errors, pod, false);
  }

  /** EvaluatePod: enforce (pods only), then audit, then warn, reusing equal evaluations. */
  private evaluatePod(a: AdmissionAttributes, policy: Policy, policyErrors: ErrorList, pod: PodView, enforce: boolean): void {
    if (this.exemptRuntimeClass(pod.spec)) return this.annotate(a, { [EXEMPTION_REASON_ANNOTATION]: 'runtimeClass' });
    const annotations: Record<string, string> = {};
    if (policyErrors.length > 0) annotations.error = `Failed to parse policy: ${aggregateText(policyErrors)}`;
    const cache = new Map<string, AggregateResult>();
    const evaluate = (lv: LevelVersion): AggregateResult => {
      const key = levelVersionString(lv);
      let r = cache.get(key);
      if (!r) {
        r = this.evaluate(lv, pod);
        cache.set(key, r);
      }
      return r;
    };
    let denied: string | undefined;
    if (enforce) {
      annotations[ENFORCED_POLICY_ANNOTATION] = levelVersionString(policy.enforce);
      const r = evaluate(policy.enforce);
      if (!r.allowed) denied = `violates PodSecurity ${JSON.stringify(levelVersionString(policy.enforce))}: ${forbiddenDetail(r)}`;
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) annotations[AUDIT_VIOLATIONS_ANNOTATION] = `would violate PodSecurity ${JSON.stringify(levelVersionString(policy.audit))}: ${forbiddenDetail(audit)}`;
    // No warnings on a request that is refused anyway.
    if (denied === undefined) {
      const warn = evaluate(policy.warn);
      if (!warn.allowed) a.warn(`would violate PodSecurity ${JSON.stringify(levelVersionString(policy.warn))}: ${forbiddenDetail(warn)}`);
    }
    this.annotate(a, annotations);
    if (denied !== undefined) throw forbiddenError({ group: a.group, name: a.resource }, a.name, denied);
  }
}

/** reflect.DeepEqual of two label error lists. */
const sameErrors = (a: ErrorList, b: ErrorList): boolean =>
  a.length === b.length && a.every((e, i) => e.field === b[i]!.field && e.type === b[i]!.type && e.detail === b[i]!.detail && e.badValue === b[i]!.badValue);

/** An ErrorList's ToAggregate().Error(): one error alone, several in brackets. */
function aggregateText(errs: ErrorList): string {
  const msgs = [...new Set(errs.map((e) => e.message))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

function forbiddenInternal(namespace: string): Error {
  return internalServerError(`failed to lookup namespace "${namespace}"`);
}

const APPLICABLE = (a: AdmissionAttributes): boolean =>
  (a.group === '' && (a.resource === 'pods' || a.resource === 'namespaces')) || hasPodSpec(a.group, a.resource);

/** The plugin as the admission chain runs it. */
export function podSecurity(config?: PodSecurityConfiguration): AdmissionPlugin {
  const psa = new PodSecurity(config);
  return {
    name: 'PodSecurity',
    handles: (a) => (a.operation === 'CREATE' || a.operation === 'UPDATE') && APPLICABLE(a),
    validate: (a, ctx) => psa.validate(a, ctx),
  };
}
