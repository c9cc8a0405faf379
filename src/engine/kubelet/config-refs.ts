/**
 * What a pod needs from ConfigMaps and Secrets before it can run: the objects its volumes mount
 * (configMap, secret and projected volumes) and those its containers' environment reads
 * (env valueFrom, envFrom). A missing object that is not optional stops the pod, in the
 * kubelet's words: volumes fail to mount ("MountVolume.SetUp failed for volume ..."), containers
 * fail to be created (CreateContainerConfigError).
 */
import { goQuote } from '../api/gofmt';
import { isObject, type JsonObject, type KubeObject } from '../api/types';
import type { Container, Pod } from './api';
import { own } from '../api/own';

export type ConfigKind = 'configmap' | 'secret';

export interface VolumeRef {
  volume: string;
  kind: ConfigKind;
  name: string;
  optional: boolean;
}

/** Reads a ConfigMap or Secret of the pod's namespace; undefined when it does not exist. */
export type ConfigLookup = (kind: ConfigKind, name: string) => Promise<KubeObject | undefined>;

const objects = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const field = (o: unknown, key: string): JsonObject | undefined => {
  const v = isObject(o) ? own(o, key) : undefined;
  return isObject(v) ? v : undefined;
};
const str = (o: JsonObject | undefined, key: string): string => {
  const v = own(o, key);
  return typeof v === 'string' ? v : '';
};

function volumeRefs(pod: Pod): VolumeRef[] {
  const out: VolumeRef[] = [];
  for (const v of objects((pod.spec as JsonObject | undefined)?.volumes)) {
    const volume = str(v, 'name');
    const cm = field(v, 'configMap');
    if (cm) out.push({ volume, kind: 'configmap', name: str(cm, 'name'), optional: cm.optional === true });
    const secret = field(v, 'secret');
    if (secret) out.push({ volume, kind: 'secret', name: str(secret, 'secretName'), optional: secret.optional === true });
    for (const s of objects(field(v, 'projected')?.sources)) {
      const pcm = field(s, 'configMap');
      if (pcm) out.push({ volume, kind: 'configmap', name: str(pcm, 'name'), optional: pcm.optional === true });
      const ps = field(s, 'secret');
      if (ps) out.push({ volume, kind: 'secret', name: str(ps, 'name'), optional: ps.optional === true });
    }
  }
  return out;
}

/** The kubelet's "not found" for a ConfigMap or Secret (its managers name the resource in the singular). */
export function notFoundMessage(kind: ConfigKind, name: string): string {
  return `${kind} ${goQuote(name)} not found`;
}

/** Volumes that cannot be set up now, with the SetUp error of each (first missing source). */
export async function unmountableVolumes(pod: Pod, lookup: ConfigLookup): Promise<Map<string, string>> {
  const failed = new Map<string, string>();
  for (const ref of volumeRefs(pod)) {
    if (ref.optional || failed.has(ref.volume)) continue;
    if (!(await lookup(ref.kind, ref.name))) failed.set(ref.volume, notFoundMessage(ref.kind, ref.name));
  }
  return failed;
}

/**
 * makeEnvironmentVariables' verdict on a container: undefined when every ConfigMap, Secret and
 * key it reads is there (or optional), else the kubelet's error.
 */
export async function containerConfigError(container: Container, namespace: string, lookup: ConfigLookup): Promise<string | undefined> {
  const c: JsonObject = container;
  for (const e of objects(c.envFrom)) {
    for (const [key, kind] of [['configMapRef', 'configmap'], ['secretRef', 'secret']] as const) {
      const ref = field(e, key);
      if (!ref || ref.optional === true) continue;
      if (!(await lookup(kind, str(ref, 'name')))) return notFoundMessage(kind, str(ref, 'name'));
    }
  }
  for (const e of objects(c.env)) {
    const from = field(e, 'valueFrom');
    for (const [key, kind, title] of [['configMapKeyRef', 'configmap', 'ConfigMap'], ['secretKeyRef', 'secret', 'Secret']] as const) {
      const ref = field(from, key);
      if (!ref) continue;
      const name = str(ref, 'name');
      const obj = await lookup(kind, name);
      const optional = ref.optional === true;
      if (!obj) {
        if (optional) continue;
        return notFoundMessage(kind, name);
      }
      const wanted = str(ref, 'key');
      const data = { ...(isObject(obj.data) ? obj.data : {}), ...(isObject(obj.binaryData) ? obj.binaryData : {}), ...(isObject(obj.stringData) ? obj.stringData : {}) };
      if (!Object.hasOwn(data, wanted) && !optional) return `couldn't find key ${wanted} in ${title} ${namespace}/${name}`;
    }
  }
  return undefined;
}
