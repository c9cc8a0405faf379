/**
 * ServiceAccount: a pod runs as a service account ("default" unless it names one), which must
 * exist; unless automounting is turned off, every container gets the account's API credentials
 * as the projected volume kube-api-access-<random> mounted at
 * /var/run/secrets/kubernetes.io/serviceaccount, exactly as kube-apiserver 1.35 builds it.
 */
import { isObject, type JsonObject, type KubeObject } from '../../../api/types';
import { admissionForbidden } from '../errors';
import { isPod, type AdmissionAttributes, type AdmissionContext, type AdmissionPlugin } from '../types';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const VOLUME_PREFIX = 'kube-api-access-';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

const SERVICE_ACCOUNTS = { group: '', resource: 'serviceaccounts' };

/** The projected volume source of the token volume (serviceaccount.TokenVolumeSource). */
export function tokenVolumeSource(): JsonObject {
  return {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

/** The account from the informer; read live only when the informer does not have it (yet). */
async function lookUp(a: AdmissionAttributes, ctx: AdmissionContext, name: string): Promise<KubeObject> {
  const sa = ctx.reader.cached(SERVICE_ACCOUNTS, a.namespace).find((s) => s.metadata.name === name) ?? (await ctx.reader.get(SERVICE_ACCOUNTS, a.namespace, name));
  if (!sa) throw admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`);
  return sa;
}

const isMirrorPod = (pod: KubeObject): boolean => Object.hasOwn(pod.metadata.annotations ?? {}, MIRROR_POD_ANNOTATION);

function shouldAutomount(sa: KubeObject, spec: JsonObject): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof sa.automountServiceAccountToken === 'boolean') return sa.automountServiceAccountToken;
  return true;
}

function containers(spec: JsonObject, field: 'initContainers' | 'containers'): JsonObject[] {
  const list = spec[field];
  return Array.isArray(list) ? list.filter(isObject) : [];
}

function mountToken(spec: JsonObject, ctx: AdmissionContext): string | undefined {
  const volumes = Array.isArray(spec.volumes) ? spec.volumes.filter(isObject) : [];
  const existing = volumes.find((v) => typeof v.name === 'string' && v.name.startsWith(VOLUME_PREFIX));
  const volumeName = typeof existing?.name === 'string' ? existing.name : VOLUME_PREFIX + ctx.random.string(5);
  let needsVolume = false;
  for (const c of [...containers(spec, 'initContainers'), ...containers(spec, 'containers')]) {
    const mounts = Array.isArray(c.volumeMounts) ? c.volumeMounts : [];
    if (mounts.some((m) => isObject(m) && m.mountPath === TOKEN_MOUNT_PATH)) continue;
    c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
    needsVolume = true;
  }
  if (existing || !needsVolume) return undefined;
  spec.volumes = [...(Array.isArray(spec.volumes) ? spec.volumes : []), { name: volumeName, projected: tokenVolumeSource() }];
  return volumeName;
}

export const serviceAccount: AdmissionPlugin = {
  name: 'ServiceAccount',
  handles: (a) => a.operation === 'CREATE' && isPod(a),
  async admit(a, ctx) {
    if (!a.object || isMirrorPod(a.object)) return;
    const spec = isObject(a.object.spec) ? a.object.spec : {};
    a.object.spec = spec;
    const changes: string[] = [];
    if (typeof spec.serviceAccountName !== 'string' || spec.serviceAccountName === '') {
      spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT;
      changes.push(`serviceAccountName ${DEFAULT_SERVICE_ACCOUNT}`);
    }
    const sa = await lookUp(a, ctx, spec.serviceAccountName as string);
    if (shouldAutomount(sa, spec)) {
      const volume = mountToken(spec, ctx);
      if (volume) changes.push(`mounted the API token volume ${volume}`);
    }
    const pullSecrets = Array.isArray(sa.imagePullSecrets) ? sa.imagePullSecrets.filter(isObject) : [];
    if ((!Array.isArray(spec.imagePullSecrets) || spec.imagePullSecrets.length === 0) && pullSecrets.length > 0) {
      spec.imagePullSecrets = pullSecrets.map((s) => ({ name: typeof s.name === 'string' ? s.name : '' }));
      changes.push('imagePullSecrets from the service account');
    }
    return changes.join('; ');
  },
  async validate(a, ctx) {
    if (!a.object) return;
    const spec = isObject(a.object.spec) ? a.object.spec : {};
    const name = typeof spec.serviceAccountName === 'string' ? spec.serviceAccountName : '';
    if (isMirrorPod(a.object)) {
      if (name) throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
      return;
    }
    await lookUp(a, ctx, name);
  },
};
