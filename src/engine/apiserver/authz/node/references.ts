/**
 * What a pod refers to, as the Node authorizer's graph records it (podutil.VisitPodSecretNames,
 * VisitPodConfigmapNames, and the graph's PVC, ephemeral-claim, service-account and
 * ResourceClaim edges). Mirror pods refer to nothing: a kubelet must not gain access to objects
 * by creating a static pod.
 */
import { isObject, type JsonObject, type KubeObject } from '../../../api/types';
import { own } from '../../../api/own';

export type ReferenceType = 'secret' | 'configmap' | 'pvc' | 'serviceaccount' | 'resourceclaim';

export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

const objects = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const field = (o: unknown, key: string): JsonObject | undefined => {
  const v = isObject(o) ? own(o, key) : undefined;
  return isObject(v) ? v : undefined;
};
const name = (o: JsonObject | undefined, key = 'name'): string | undefined => {
  const v = own(o, key);
  return typeof v === 'string' && v !== '' ? v : undefined;
};

// Volume sources whose secret is a secretRef (azureFile names it directly; secret volumes by secretName).
const SECRET_REF_VOLUMES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

function containers(spec: JsonObject): JsonObject[] {
  return [...objects(spec.initContainers), ...objects(spec.containers), ...objects(spec.ephemeralContainers)];
}

function secretNames(spec: JsonObject): string[] {
  const out: (string | undefined)[] = objects(spec.imagePullSecrets).map((r) => name(r));
  for (const c of containers(spec)) {
    for (const e of objects(c.envFrom)) out.push(name(field(e, 'secretRef')));
    for (const e of objects(c.env)) out.push(name(field(field(e, 'valueFrom'), 'secretKeyRef')));
  }
  for (const v of objects(spec.volumes)) {
    out.push(name(field(v, 'azureFile'), 'secretName'), name(field(v, 'secret'), 'secretName'));
    for (const t of SECRET_REF_VOLUMES) out.push(name(field(field(v, t), 'secretRef')));
    out.push(name(field(field(v, 'csi'), 'nodePublishSecretRef')));
    for (const s of objects(field(v, 'projected')?.sources)) out.push(name(field(s, 'secret')));
  }
  return out.filter((n): n is string => n !== undefined);
}

function configMapNames(spec: JsonObject): string[] {
  const out: (string | undefined)[] = [];
  for (const c of containers(spec)) {
    for (const e of objects(c.envFrom)) out.push(name(field(e, 'configMapRef')));
    for (const e of objects(c.env)) out.push(name(field(field(e, 'valueFrom'), 'configMapKeyRef')));
  }
  for (const v of objects(spec.volumes)) {
    out.push(name(field(v, 'configMap')));
    for (const s of objects(field(v, 'projected')?.sources)) out.push(name(field(s, 'configMap')));
  }
  return out.filter((n): n is string => n !== undefined);
}

function claimNames(pod: KubeObject, spec: JsonObject): string[] {
  const out: string[] = [];
  for (const v of objects(spec.volumes)) {
    const claim = name(field(v, 'persistentVolumeClaim'), 'claimName');
    if (claim) out.push(claim);
    // ephemeral.VolumeClaimName: the claim the ephemeral-volume controller creates for the pod.
    if (field(v, 'ephemeral') && typeof v.name === 'string') out.push(`${pod.metadata.name ?? ''}-${v.name}`);
  }
  return out;
}

/** Every object of the pod's namespace the pod refers to, as [type, name] pairs. */
export function podReferences(pod: KubeObject): [ReferenceType, string][] {
  if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return [];
  const spec = isObject(pod.spec) ? pod.spec : {};
  const refs: [ReferenceType, string][] = [];
  const sa = name(spec, 'serviceAccountName');
  if (sa) refs.push(['serviceaccount', sa]);
  for (const n of secretNames(spec)) refs.push(['secret', n]);
  for (const n of configMapNames(spec)) refs.push(['configmap', n]);
  for (const n of claimNames(pod, spec)) refs.push(['pvc', n]);
  for (const s of objects(field(pod, 'status')?.resourceClaimStatuses)) {
    const claim = name(s, 'resourceClaimName');
    if (claim) refs.push(['resourceclaim', claim]);
  }
  return refs;
}

/** spec.nodeName, or '' for a pod not bound to a node (the graph leaves those out). */
export function podNodeName(pod: KubeObject): string {
  const spec = pod.spec;
  return isObject(spec) && typeof spec.nodeName === 'string' ? spec.nodeName : '';
}
