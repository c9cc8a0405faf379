/**
 * The ValidatingAdmissionPolicy admission plugin (validating/dispatcher.go): for every policy
 * whose matchConstraints match the request, every binding of it whose matchResources match,
 * and every parameter the binding selects, the policy's validations run; a failed validation
 * denies (Deny), warns (Warn) or is recorded as an audit annotation (Audit) as the binding's
 * validationActions say. The first denial answers the request:
 * `ValidatingAdmissionPolicy 'p' with binding 'b' denied request: <message>`, with the
 * validation's reason (Invalid by default) and its HTTP code.
 *
 * Policies and bindings come from the API server's watch cache, compiled once per policy
 * generation; a request no policy exists for costs one cache lookup.
 */
import type { StatusReason } from '../../../api/status';
import type { KubeObject } from '../../../api/types';
import { CelAuthorizer, CelResourceCheck } from '../../../cel/library/authz';
import { toCel } from '../../../cel/values';
import { obj, str, strs } from '../../validation/core/json';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { compilePolicy, type CompiledPolicy } from './compile';
import { matchResources, requestNamespace, type MatchResult } from './matching';
import { collectParams } from './params';
import { validate, type Decision } from './validator';
import { Path } from '../../../api/field';
import { setOwn } from '../../../api/own';

const POLICIES = { group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicies' };
const BINDINGS = { group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicybindings' };
const NAMESPACES = { group: '', resource: 'namespaces' };

const MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;

interface Denial {
  readonly policy: string;
  readonly binding?: string;
  readonly message: string;
  readonly reason?: string;
}

const REASON_CODES: Record<string, number> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

/** Compiled policies by name, kept while their uid and generation stay the same. */
class PolicyCache {
  private readonly byName = new Map<string, { key: string; compiled: CompiledPolicy }>();
  get(policy: KubeObject): CompiledPolicy {
    const name = policy.metadata.name ?? '';
    const key = `${policy.metadata.uid ?? ''}/${policy.metadata.generation ?? policy.metadata.resourceVersion ?? ''}`;
    const hit = this.byName.get(name);
    if (hit && hit.key === key) return hit.compiled;
    const compiled = compilePolicy(obj(policy['spec']) ?? {}, Path.root('spec'));
    this.byName.set(name, { key, compiled });
    if (this.byName.size > 4096) this.byName.delete(this.byName.keys().next().value!);
    return compiled;
  }
}

function byName(a: KubeObject, b: KubeObject): number {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The request as admission expressions see it (cel.CreateAdmissionRequest). */
function admissionRequest(a: AdmissionAttributes, m: MatchResult): Record<string, unknown> {
  const optionsKind = a.operation === 'CREATE' ? 'CreateOptions' : a.operation === 'UPDATE' ? 'UpdateOptions' : a.operation === 'DELETE' ? 'DeleteOptions' : undefined;
  const user = a.user;
  return {
    kind: m.kind ?? { group: a.group, version: a.version, kind: a.kind },
    resource: m.resource ?? { group: a.group, version: a.version, resource: a.resource },
    subResource: a.subresource,
    requestKind: { group: a.group, version: a.version, kind: a.kind },
    requestResource: { group: a.group, version: a.version, resource: a.resource },
    requestSubResource: a.subresource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: { username: user.username, uid: user.uid, groups: [...user.groups], extra: new Map(Object.entries(user.extra).map(([k, v]) => [k, [...v]])) },
    dryRun: a.dryRun,
    options: optionsKind ? toCel({ kind: optionsKind, apiVersion: 'meta.k8s.io/v1', ...(a.dryRun ? { dryRun: ['All'] } : {}) }) : null,
  };
}

function timestamp(v: unknown): Date | undefined {
  return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v) : undefined;
}

/** The namespace as `namespaceObject` (cel.CreateNamespaceObject: its metadata, spec and status). */
function namespaceObject(ns: KubeObject | undefined): unknown {
  if (!ns) return null;
  const m = ns.metadata;
  const metadata: Record<string, unknown> = {};
  const put = (k: string, v: unknown): void => {
    if (v !== undefined && v !== null && v !== '') setOwn(metadata, k, v);
  };
  put('name', m.name);
  put('generateName', m.generateName);
  put('namespace', m.namespace);
  put('labels', m.labels ? new Map(Object.entries(m.labels)) : undefined);
  put('annotations', m.annotations ? new Map(Object.entries(m.annotations)) : undefined);
  put('UID', m.uid);
  put('creationTimestamp', timestamp(m.creationTimestamp));
  put('deletionGracePeriodSeconds', m.deletionGracePeriodSeconds !== undefined ? BigInt(m.deletionGracePeriodSeconds) : undefined);
  put('deletionTimestamp', timestamp(m.deletionTimestamp));
  put('generation', m.generation !== undefined ? BigInt(m.generation) : undefined);
  put('resourceVersion', m.resourceVersion);
  put('finalizers', m.finalizers);
  const spec = obj(ns['spec']) ?? {};
  const status = obj(ns['status']) ?? {};
  const conditions = (Array.isArray(status['conditions']) ? status['conditions'] : []).map((c) => {
    const o = (obj(c) ?? {}) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of ['status', 'type', 'message', 'reason'] as const) if (typeof o[k] === 'string') out[k] = o[k];
    const t = timestamp(o['lastTransitionTime']);
    if (t) out['lastTransitionTime'] = t;
    return out;
  });
  return {
    metadata,
    spec: Array.isArray(spec['finalizers']) ? { finalizers: spec['finalizers'] } : {},
    status: { ...(conditions.length ? { conditions } : {}), ...(typeof status['phase'] === 'string' ? { phase: status['phase'] } : {}) },
  };
}

function denialError(a: AdmissionAttributes, d: Denial): Error {
  const message = d.binding !== undefined ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}` : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const err = admissionForbidden(a, message);
  const reason = (d.reason || 'Invalid') as StatusReason;
  err.status.reason = reason;
  err.status.code = REASON_CODES[reason] ?? 422;
  err.status.details = { ...(err.status.details ?? {}), causes: [...(err.status.details?.causes ?? []), { message }] };
  return err;
}

export function validatingAdmissionPolicy(): AdmissionPlugin {
  const cache = new PolicyCache();
  // The reader, once the first request has shown it: from then on a request is looked at only
  // while some policy and binding exist, so that the others pass the plugin without a step.
  let reader: AdmissionContext['reader'] | undefined;
  return {
    name: 'ValidatingAdmissionPolicy',
    handles: () => !reader || (reader.cached(POLICIES).length > 0 && reader.cached(BINDINGS).length > 0),
    validate(a, ctx) {
      reader = ctx.reader;
      const policies = ctx.reader.cached(POLICIES);
      const bindings = ctx.reader.cached(BINDINGS);
      if (policies.length === 0 || bindings.length === 0) return;
      return dispatch(a, ctx, [...policies].sort(byName), [...bindings].sort(byName), cache);
    },
  };
}

async function dispatch(a: AdmissionAttributes, ctx: AdmissionContext, policies: KubeObject[], bindings: KubeObject[], cache: PolicyCache): Promise<string | void> {
  const denials: Denial[] = [];
  const notes: string[] = [];
  // The request's namespace as the policy matcher's GetNamespace finds it: from the informer,
  // and with a live read when the informer has not heard of it yet (a namespace created a moment
  // ago, as `kubectl apply` of a Namespace and a Deployment in one file does).
  const reqNs = requestNamespace(a);
  let reqNsObject = reqNs ? ctx.reader.cached(NAMESPACES).find((n) => n.metadata.name === reqNs) : undefined;
  if (reqNs && !reqNsObject) reqNsObject = await ctx.reader.get(NAMESPACES, '', reqNs);
  const namespaceLabels = (name: string): Record<string, string> | undefined => {
    const ns = name === reqNs ? reqNsObject : ctx.reader.cached(NAMESPACES).find((n) => n.metadata.name === name);
    return ns ? (ns.metadata.labels ?? {}) : undefined;
  };
  const matchInput = { a, namespaceLabels, registry: ctx.registry };

  for (const policy of policies) {
    const policyName = policy.metadata.name ?? '';
    const bound = bindings.filter((b) => str(obj(b['spec'])?.['policyName']) === policyName);
    if (bound.length === 0) continue;
    const spec = obj(policy['spec']) ?? {};
    const failurePolicy = str(spec['failurePolicy']) || 'Fail';
    const configError = (message: string, binding?: string): void => {
      if (failurePolicy === 'Ignore') return;
      denials.push({ policy: policyName, ...(binding !== undefined ? { binding } : {}), message: binding !== undefined ? `failed to configure binding: ${message}` : `failed to configure policy: ${message}` });
    };
    const pm = matchResources(obj(spec['matchConstraints']), matchInput);
    if (pm.error !== undefined) {
      configError(pm.error);
      continue;
    }
    if (!pm.matches) continue;
    const compiled = cache.get(policy);
    const annotations = new Map<string, string[]>();

    for (const binding of bound) {
      const bindingName = binding.metadata.name ?? '';
      const bspec = obj(binding['spec']) ?? {};
      const bm = matchResources(obj(bspec['matchResources']), matchInput);
      if (bm.error !== undefined) {
        configError(bm.error, bindingName);
        continue;
      }
      if (!bm.matches) continue;
      const params = collectParams(obj(spec['paramKind']), obj(bspec['paramRef']), a.namespace, ctx.registry, ctx.reader);
      if (!params.ok) {
        configError(params.error, bindingName);
        continue;
      }
      const nsName = a.group === '' && a.resource === 'namespaces' ? '' : requestNamespace(a);
      const ns = nsName ? reqNsObject : undefined;
      const base: Record<string, unknown> = {
        object: a.object && a.operation !== 'DELETE' ? toCel(a.object) : null,
        oldObject: a.oldObject && a.operation !== 'CREATE' ? toCel(a.oldObject) : null,
        request: admissionRequest(a, pm),
        namespaceObject: namespaceObject(ns),
        authorizer: authorizerFor(a, ctx),
      };
      const actions = strs(bspec['validationActions']);
      for (const param of params.value) {
        const activation = compiled.hasParams ? { ...base, params: param ? toCel(param) : null } : base;
        const result = await validate(compiled, activation, failurePolicy);
        result.decisions.forEach((d: Decision, i) => {
          if (d.action !== 'deny') return;
          for (const action of actions) {
            if (action === 'Deny') denials.push({ policy: policyName, binding: bindingName, message: d.message, ...(d.reason ? { reason: d.reason } : {}) });
            else if (action === 'Warn') a.warn(`Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${d.message}`);
            else if (action === 'Audit') {
              const value = JSON.stringify([{ message: d.message, policy: policyName, binding: bindingName, expressionIndex: i, validationActions: actions }]);
              a.annotate('validation.policy.admission.k8s.io/validation_failure', value);
              notes.push(`audit: validation.policy.admission.k8s.io/validation_failure=${value}`);
            }
          }
        });
        for (const an of result.auditAnnotations) {
          if (an.action === 'publish') {
            const v = an.value!.slice(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH);
            const list = annotations.get(an.key) ?? [];
            if (!list.includes(v)) list.push(v);
            annotations.set(an.key, list);
          } else if (an.action === 'error') {
            denials.push({ policy: policyName, binding: bindingName, message: an.error! });
          }
        }
      }
    }
    for (const [key, values] of [...annotations].sort(([x], [y]) => (x < y ? -1 : 1))) {
      const value = values.join(', ');
      a.annotate(`${policyName}/${key}`, value);
      notes.push(`audit: ${policyName}/${key}=${value}`);
    }
  }
  if (denials.length > 0) throw denialError(a, denials[0]!);
  return notes.length > 0 ? notes.join('; ') : undefined;
}

function authorizerFor(a: AdmissionAttributes, ctx: AdmissionContext): CelAuthorizer {
  const authz = new CelAuthorizer(a.user, ctx.authorizer);
  // `authorizer.requestResource`: a check prepared with the request's resource
  Object.defineProperty(authz, 'requestResource', {
    value: new CelResourceCheck(authz, a.group, a.resource, a.subresource, a.namespace, a.name),
    enumerable: false,
  });
  return authz;
}
