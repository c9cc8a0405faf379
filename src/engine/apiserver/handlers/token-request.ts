/**
 * POST serviceaccounts/<name>/token (pkg/registry/core/serviceaccount/storage/token.go): issues
 * a signed token for the service account (authn/service-account-tokens.ts), optionally bound to
 * a pod (and the node it runs on), a secret or a node, and answers with the TokenRequest and its
 * status. The token expires on the cluster's clock and stops authenticating once an object it
 * names is gone.
 */
import { invalid, Path, type ErrorList } from '../../api/field';
import { goQuote } from '../../api/gofmt';
import { badRequestError, conflictError, invalidError, notFoundError, type GroupThing } from '../../api/status';
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import { decodeBody } from '../body';
import type { RequestContext, Target } from '../context';
import { getObject } from './read';
import { table } from '../../api/own';
import { API_AUDIENCES, type TokenBinding } from '../authn/service-account-tokens';

const TOKEN_REQUEST: GroupThing = { group: 'authentication.k8s.io', name: 'TokenRequest' };
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 10 * 60;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

/** The objects a token may be bound to, and where they are stored. */
const BINDABLE = table<{ resource: string; namespaced: boolean }>({
  Pod: { resource: 'pods', namespaced: true },
  Secret: { resource: 'secrets', namespaced: true },
  Node: { resource: 'nodes', namespaced: false },
});

/** ValidateTokenRequest. */
function validateTokenRequest(seconds: number): ErrorList {
  const path = Path.root('spec', 'expirationSeconds');
  if (seconds < MIN_EXPIRATION_SECONDS) return [invalid(path, seconds, 'may not specify a duration less than 10 minutes')];
  if (seconds > MAX_EXPIRATION_SECONDS) return [invalid(path, seconds, 'may not specify a duration larger than 2^32 seconds')];
  return [];
}

/** The object the token is bound to, after the checks upstream makes on it, as the token's claims name it. */
async function boundObject(ctx: RequestContext, sa: string, ref: JsonObject): Promise<TokenBinding> {
  const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
  const kind = typeof ref.kind === 'string' ? ref.kind : '';
  const name = typeof ref.name === 'string' ? ref.name : '';
  const bindable = apiVersion === 'v1' ? BINDABLE[kind] : undefined;
  if (!bindable) {
    const slash = apiVersion.indexOf('/');
    const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
    throw badRequestError(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  const obj = await ctx.server.storage.get({ group: '', resource: bindable.resource }, bindable.namespaced ? ctx.request.namespace ?? '' : '', name);
  if (!obj) throw notFoundError({ group: '', name: bindable.resource }, name);
  if (kind === 'Pod') {
    const podSA = isObject(obj.spec) && typeof obj.spec.serviceAccountName === 'string' ? obj.spec.serviceAccountName : '';
    if (podSA !== sa) throw badRequestError(`cannot bind token for serviceaccount ${goQuote(sa)} to pod running with serviceaccount ${goQuote(podSA)}`);
  }
  const uid = obj.metadata.uid ?? '';
  if (typeof ref.uid === 'string' && ref.uid !== '' && ref.uid !== uid) {
    throw conflictError({ group: '', name: kind }, name, `the UID in the bound object reference (${ref.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`);
  }
  if (kind === 'Secret') return { secret: { name, uid } };
  if (kind === 'Node') return { node: { name, uid } };
  // A pod-bound token also names the node the pod is scheduled to (ServiceAccountTokenPodNodeInfo).
  const nodeName = isObject(obj.spec) && typeof obj.spec.nodeName === 'string' ? obj.spec.nodeName : '';
  const node = nodeName ? await ctx.server.storage.get({ group: '', resource: 'nodes' }, '', nodeName) : undefined;
  return { pod: { name, uid }, ...(node ? { node: { name: nodeName, uid: node.metadata.uid ?? '' } } : {}) };
}

export async function createTokenRequest(ctx: RequestContext, t: Target): Promise<JsonObject> {
  const sub = t.info.subresources.find((s) => s.name === 'token')!;
  const req: KubeObject = decodeBody(ctx, { group: sub.group, version: sub.version, kind: sub.kind });
  const meta = req.metadata;
  if (meta.name && meta.name !== t.name) throw invalidError(TOKEN_REQUEST, t.name, [invalid(Path.root('metadata', 'name'), meta.name, 'must match the service account name if specified')]);
  if (meta.namespace && meta.namespace !== t.namespace) {
    throw invalidError(TOKEN_REQUEST, t.name, [invalid(Path.root('metadata', 'namespace'), meta.namespace, 'must match the service account namespace if specified')]);
  }
  const sa = await getObject(ctx, t);
  const spec: JsonObject = isObject(req.spec) ? req.spec : {};
  if (!Array.isArray(spec.audiences) || spec.audiences.length === 0) spec.audiences = [...API_AUDIENCES];
  if (typeof spec.expirationSeconds !== 'number') spec.expirationSeconds = DEFAULT_EXPIRATION_SECONDS;
  const now = ctx.server.clock.now();
  const errs = validateTokenRequest(spec.expirationSeconds);
  if (errs.length > 0) throw invalidError(TOKEN_REQUEST, '', errs);
  const binding = isObject(spec.boundObjectRef) ? await boundObject(ctx, t.name, spec.boundObjectRef) : {};
  const audiences = (spec.audiences as unknown[]).filter((a): a is string => typeof a === 'string');
  const { token } = ctx.server.serviceAccountTokens.issue(t.namespace, { name: t.name, uid: sa.metadata.uid ?? '' }, audiences, now, spec.expirationSeconds, binding);
  const metadata: JsonObject = { ...(meta as JsonObject), name: meta.name || t.name, namespace: meta.namespace || t.namespace, creationTimestamp: ctx.server.clock.rfc3339(now) };
  return {
    kind: sub.kind,
    apiVersion: `${sub.group}/${sub.version}`,
    metadata,
    spec,
    status: { token, expirationTimestamp: ctx.server.clock.rfc3339(now + spec.expirationSeconds * 1000) },
  };
}
