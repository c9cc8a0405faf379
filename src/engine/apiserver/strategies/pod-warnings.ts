/**
 * The warnings kube-apiserver adds to a pod's or a pod template's create and update
 * (pkg/api/pod/warnings.go, with pkg/api/node's deprecated node labels and
 * pkg/api/persistentvolumeclaim's storage quantities), in upstream's order. Map keys are taken
 * in sorted order where upstream ranges over a Go map.
 */
import { Path } from '../../api/field';
import { quantityOrUndefined } from '../../api/quantity';
import { own, table } from '../../api/own';
import { isObject, type JsonObject, type JsonValue } from '../../api/types';

const DEPRECATED_NODE_LABELS = table<string>({
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
  'app.kubernetes.io/created-by': 'deprecated since v1.9',
  'scheduler.alpha.kubernetes.io/preferAvoidPods': 'deprecated since v1.22; use Taints and Tolerations instead',
  'node-role.kubernetes.io/master': 'use "node-role.kubernetes.io/control-plane" instead',
});

/** nodeapi.GetNodeLabelDeprecatedMessage. */
export const deprecatedNodeLabelMessage = (key: string): string | undefined => own(DEPRECATED_NODE_LABELS, key);

const DEPRECATED_ANNOTATIONS: readonly { key: string; message: string }[] = [
  { key: 'scheduler.alpha.kubernetes.io/critical-pod', message: 'non-functional in v1.16+; use the "priorityClassName" field instead' },
  { key: 'security.alpha.kubernetes.io/sysctls', message: 'non-functional in v1.11+; use the "sysctls" field instead' },
  { key: 'security.alpha.kubernetes.io/unsafe-sysctls', message: 'non-functional in v1.11+; use the "sysctls" field instead' },
];

/** Deprecated and removed volume plugins, in the order upstream checks them. */
const DEPRECATED_VOLUMES: readonly [source: string, message: string][] = [
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'deprecated in v1.11'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['ephemeral', ''],
  ['cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

/** The Go field name upstream prints for a volume source whose JSON name differs. */
const VOLUME_FIELD_NAME = table<string>({ storageos: 'storageOS' });

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_CONTAINER_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

const obj = (v: JsonValue | undefined): JsonObject | undefined => (isObject(v) ? v : undefined);
const list = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const str = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');
const num = (v: JsonValue | undefined): number => (typeof v === 'number' ? v : 0);
const set = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;
const sortedKeys = (o: JsonObject | undefined): string[] => Object.keys(o ?? {}).sort();

/** fieldPath.Child(...): a template's path, or from the root for a pod (nil path). */
const child = (base: Path | undefined, ...names: string[]): Path => (base ? base.child(names[0]!, ...names.slice(1)) : Path.root(names[0]!, ...names.slice(1)));

/** "<path>[i].<field>: duplicate <field> \"v\"" for each item whose field repeats an earlier item's. */
function duplicateWarnings(items: readonly JsonObject[], path: Path, field: 'ip' | 'name'): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const value = str(item[field]);
    if (seen.has(value)) warnings.push(`${path.index(i).child(field)}: duplicate ${field} ${JSON.stringify(value)}`);
    else seen.add(value);
  });
  return warnings;
}

/** A quantity whose milli-value is not whole bytes: its canonical text, else undefined. */
function fractionalBytes(v: JsonValue | undefined): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const q = quantityOrUndefined(String(v));
  if (!q) return undefined;
  return q.milliValue() % 1000 !== 0 ? q.toString() : undefined;
}

const fractional = (path: Path, value: string): string => `${path}: fractional byte value ${JSON.stringify(value)} is invalid, must be an integer`;

function nodeSelectorTermWarnings(term: JsonObject | undefined, path: Path): string[] {
  const out: string[] = [];
  list(term?.matchExpressions).forEach((e, i) => {
    const key = str(e.key);
    const msg = deprecatedNodeLabelMessage(key);
    if (msg) out.push(`${path.child('matchExpressions').index(i).child('key')}: ${key} is ${msg}`);
  });
  return out;
}

/** GetWarningsForPersistentVolumeClaimSpec: fractional storage requests and limits. */
function claimSpecWarnings(path: Path, spec: JsonObject | undefined): string[] {
  const out: string[] = [];
  const resources = obj(spec?.resources);
  const req = fractionalBytes(obj(resources?.requests)?.storage);
  if (req !== undefined) out.push(fractional(path.child('resources').child('requests').key('storage'), req));
  const lim = fractionalBytes(obj(resources?.limits)?.storage);
  if (lim !== undefined) out.push(fractional(path.child('resources').child('limits').key('storage'), lim));
  return out;
}

/** VisitContainersWithPath: init containers, containers, ephemeral containers. */
function visitContainers(spec: JsonObject, base: Path | undefined, fn: (c: JsonObject, p: Path) => void): void {
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) list(own(spec, key)).forEach((c, i) => fn(c, child(base, 'spec', key).index(i)));
}

/** Go's %+v of an internal ContainerPort. */
const formatPort = (p: JsonObject): string =>
  `{Name:${str(p.name)} HostPort:${num(p.hostPort)} ContainerPort:${num(p.containerPort)} Protocol:${str(p.protocol)} HostIP:${str(p.hostIP)}}`;

/** A path and where it came from ("ConfigMap \"cfg\"", "ServiceAccountToken"), as warnings name them. */
interface PathAndSource {
  readonly path: string;
  readonly source: string;
}

const describe = (ps: PathAndSource): string => (ps.source ? `${JSON.stringify(ps.path)} (${ps.source})` : JSON.stringify(ps.path));

/** checkForOverlap: the paths seen before that equal, contain or sit inside this one. */
function collisions(haystack: readonly PathAndSource[], needle: PathAndSource): PathAndSource[] {
  if (needle.path === '') return [];
  return haystack.filter((item) => {
    if (item.path === '') return false;
    if (item.path === needle.path && item.source === needle.source) return true;
    return `${item.path}/`.startsWith(`${needle.path}/`) || `${needle.path}/`.startsWith(`${item.path}/`);
  });
}

/** checkVolumeMappingForOverlap: "<path> with <earlier path>" for each collision, in order. */
function mappingOverlaps(paths: readonly PathAndSource[], into: PathAndSource[] = []): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const ps = { path: p.path.replace(/\/+$/, ''), source: p.source };
    for (const c of collisions(into, ps)) out.push(`${describe(ps)} with ${describe(c)}`);
    into.push(ps);
  }
  return out;
}

const itemPaths = (items: JsonValue | undefined, source: string): PathAndSource[] => list(items).map((i) => ({ path: str(i.path), source }));

/** warningsForOverlappingVirtualPaths: keys of one volume written to the same or nested paths. */
function virtualPathWarnings(volumes: readonly JsonObject[]): string[] {
  const out: string[] = [];
  const warn = (volume: string, desc: string, body: string): string => `volume ${JSON.stringify(volume)} (${desc}): overlapping paths: ${body}`;
  for (const v of volumes) {
    const name = str(v.name);
    const cm = obj(v.configMap);
    if (cm && set(cm.items)) for (const o of mappingOverlaps(itemPaths(cm.items, ''))) out.push(warn(name, `ConfigMap ${JSON.stringify(str(cm.name))}`, o));
    const secret = obj(v.secret);
    if (secret && set(secret.items)) for (const o of mappingOverlaps(itemPaths(secret.items, ''))) out.push(warn(name, `Secret ${JSON.stringify(str(secret.secretName))}`, o));
    const downward = obj(v.downwardAPI);
    if (downward && set(downward.items)) for (const o of mappingOverlaps(itemPaths(downward.items, ''))) out.push(warn(name, 'DownwardAPI', o));
    const projected = obj(v.projected);
    if (!projected) continue;
    const all: PathAndSource[] = [];
    let paths: PathAndSource[] = [];
    for (const source of list(projected.sources)) {
      if (Object.keys(source).length === 0) {
        out.push(`volume ${JSON.stringify(name)} (Projected) has no sources provided`);
        continue;
      }
      const s = { cm: obj(source.configMap), secret: obj(source.secret), downward: obj(source.downwardAPI), token: obj(source.serviceAccountToken), bundle: obj(source.clusterTrustBundle) };
      // As upstream, a source none of these describe keeps the previous source's paths.
      if (s.cm && set(s.cm.items)) paths = itemPaths(s.cm.items, `ConfigMap ${JSON.stringify(str(s.cm.name))}`);
      else if (s.secret && set(s.secret.items)) paths = itemPaths(s.secret.items, `Secret ${JSON.stringify(str(s.secret.name))}`);
      else if (s.downward && set(s.downward.items)) paths = itemPaths(s.downward.items, 'DownwardAPI');
      else if (s.token) paths = [{ path: str(s.token.path), source: 'ServiceAccountToken' }];
      else if (s.bundle) paths = [{ path: str(s.bundle.path), source: `ClusterTrustBundle ${JSON.stringify(set(s.bundle.name) ? str(s.bundle.name) : str(s.bundle.signerName))}` }];
      if (paths.length === 0) continue;
      for (const o of mappingOverlaps(paths, all)) out.push(warn(name, 'Projected', o));
    }
  }
  return out;
}

function nullSelectorWarnings(terms: JsonValue | undefined, path: Path, weighted: boolean): string[] {
  return list(terms).flatMap((t, i) => {
    const term = weighted ? obj(t.podAffinityTerm) : t;
    if (set(term?.labelSelector)) return [];
    const at = weighted ? path.index(i).child('podAffinityTerm', 'labelSelector') : path.index(i).child('labelSelector');
    return [`${at}: a null labelSelector results in matching no pod`];
  });
}

/**
 * warningsForPodSpecAndMeta. `base` is the template's path (spec.template) or undefined for a
 * pod; `isTemplate` says whether AppArmor annotations are warned about here (pods get theirs
 * from the AppArmor version skew handling instead).
 */
export function podSpecWarnings(base: Path | undefined, spec: JsonObject, meta: JsonObject): string[] {
  const warnings: string[] = [];
  const annotations = obj(meta.annotations) ?? {};
  const hasAnnotation = (k: string): boolean => Object.hasOwn(annotations, k);

  // deprecated node labels in selectors, affinity and topology
  for (const k of sortedKeys(obj(spec.nodeSelector))) {
    const msg = deprecatedNodeLabelMessage(k);
    if (msg) warnings.push(`${child(base, 'spec', 'nodeSelector').key(k)}: ${msg}`);
  }
  const affinity = obj(spec.affinity);
  const nodeAffinity = obj(affinity?.nodeAffinity);
  if (nodeAffinity) {
    const required = obj(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution);
    if (required) {
      const termPath = child(base, 'spec', 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
      list(required.nodeSelectorTerms).forEach((t, i) => warnings.push(...nodeSelectorTermWarnings(t, termPath.index(i))));
    }
    const preferredPath = child(base, 'spec', 'affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution');
    list(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => warnings.push(...nodeSelectorTermWarnings(obj(t.preference), preferredPath.index(i).child('preference'))));
  }
  list(spec.topologySpreadConstraints).forEach((t, i) => {
    const path = child(base, 'spec', 'topologySpreadConstraints').index(i);
    const key = str(t.topologyKey);
    const msg = deprecatedNodeLabelMessage(key);
    if (msg) warnings.push(`${path.child('topologyKey')}: ${key} is ${msg}`);
    if (!set(t.labelSelector)) warnings.push(`${path.child('labelSelector')}: a null labelSelector results in matching no pod`);
  });

  // deprecated annotations
  for (const d of DEPRECATED_ANNOTATIONS) if (hasAnnotation(d.key)) warnings.push(`${child(base, 'metadata', 'annotations').key(d.key)}: ${d.message}`);

  // deprecated and removed volume plugins
  const volumes = list(spec.volumes);
  volumes.forEach((v, i) => {
    const path = child(base, 'spec', 'volumes').index(i);
    for (const [source, message] of DEPRECATED_VOLUMES) {
      if (!set(own(v, source))) continue;
      if (source === 'ephemeral') {
        const template = obj(obj(v.ephemeral)?.volumeClaimTemplate);
        if (template) warnings.push(...claimSpecWarnings(path.child('ephemeral').child('volumeClaimTemplate').child('spec'), obj(template.spec)));
        continue;
      }
      warnings.push(`${path.child(own(VOLUME_FIELD_NAME, source) ?? source)}: ${message}`);
    }
  });
  warnings.push(...virtualPathWarnings(volumes));

  // duplicate hostAliases and imagePullSecrets
  warnings.push(...duplicateWarnings(list(spec.hostAliases), child(base, 'spec', 'hostAliases'), 'ip'));
  const pullSecrets = list(spec.imagePullSecrets);
  warnings.push(...duplicateWarnings(pullSecrets, child(base, 'spec', 'imagePullSecrets'), 'name'));
  pullSecrets.forEach((s, i) => {
    if (str(s.name) === '') warnings.push(`${child(base, 'spec', 'imagePullSecrets').index(i).child('name')}: invalid empty name ""`);
  });

  // fractional memory and ephemeral-storage in the pod overhead
  const overhead = obj(spec.overhead);
  for (const r of ['memory', 'ephemeral-storage']) {
    const v = fractionalBytes(own(overhead, r));
    if (v !== undefined) warnings.push(fractional(child(base, 'spec', 'overhead').key(r), v));
  }

  // seccomp annotations without the field
  const podSecurity = obj(spec.securityContext);
  if (!set(podSecurity?.seccompProfile) && hasAnnotation(SECCOMP_POD_ANNOTATION)) {
    warnings.push(`${child(base, 'metadata', 'annotations').key(SECCOMP_POD_ANNOTATION)}: non-functional in v1.27+; use the "seccompProfile" field instead`);
  }
  const podAppArmor = set(podSecurity?.appArmorProfile);
  visitContainers(spec, base, (c, p) => {
    const sc = obj(c.securityContext);
    const name = str(c.name);
    if (!set(sc?.seccompProfile) && hasAnnotation(SECCOMP_CONTAINER_PREFIX + name)) {
      warnings.push(`${child(base, 'metadata', 'annotations').key(SECCOMP_CONTAINER_PREFIX + name)}: non-functional in v1.27+; use the "seccompProfile" field instead`);
    }
    if (base && !podAppArmor && !set(sc?.appArmorProfile) && hasAnnotation(APPARMOR_CONTAINER_PREFIX + name)) {
      warnings.push(`${child(base, 'metadata', 'annotations').key(APPARMOR_CONTAINER_PREFIX + name)}: deprecated since v1.30; use the "appArmorProfile" field instead`);
    }
    const resources = obj(c.resources);
    for (const [kind, r] of [['limits', 'memory'], ['requests', 'memory'], ['limits', 'ephemeral-storage'], ['requests', 'ephemeral-storage']] as const) {
      const v = fractionalBytes(own(obj(own(resources, kind)), r));
      if (v !== undefined) warnings.push(fractional(p.child('resources', kind).key(r), v));
    }
    const env = list(c.env);
    if (env.length > 1) {
      const seen = new Set<string>();
      env.forEach((e, i) => {
        const envName = str(e.name);
        if (!seen.has(envName)) {
          seen.add(envName);
          return;
        }
        const ref = `$(${envName})`;
        const value = str(e.value);
        if (set(e.valueFrom) || value === ref || !value.includes(ref)) {
          warnings.push(`${p.child('env').index(i)}: hides previous definition of ${JSON.stringify(envName)}, which may be dropped when using apply`);
        }
      });
    }
  });

  // ports across all containers
  const allPorts = new Map<string, { field: Path; port: JsonObject }[]>();
  visitContainers(spec, base, (c, p) => {
    list(c.ports).forEach((port, i) => {
      const at = p.child('ports').index(i);
      const hostIP = str(port.hostIP);
      const hostPort = num(port.hostPort);
      if (hostIP !== '' && hostPort === 0) warnings.push(`${at}: hostIP set without hostPort: ${formatPort(port)}`);
      const key = `${num(port.containerPort)}/${str(port.protocol)}`;
      const others = allPorts.get(key);
      if (!others) {
        allPorts.set(key, [{ field: at, port }]);
        return;
      }
      for (const other of others) {
        const otherIP = str(other.port.hostIP);
        const otherPort = num(other.port.hostPort);
        if (hostIP === otherIP && hostPort === otherPort) warnings.push(`${at}: duplicate port definition with ${other.field}`);
        else if (hostPort === 0 || otherPort === 0) warnings.push(`${at}: overlapping port definition with ${other.field}`);
        else if (hostPort === otherPort && (hostIP === '') !== (otherIP === '')) warnings.push(`${at}: dangerously ambiguous port definition with ${other.field}`);
      }
      others.push({ field: at, port });
    });
  });

  // port names shared by containers (and sidecars)
  const portNames = new Map<string, Path>();
  visitContainers(spec, base, (c, p) => {
    list(c.ports).forEach((port, i) => {
      const name = str(port.name);
      if (name === '') return;
      const at = p.child('ports').index(i);
      const other = portNames.get(name);
      if (other) warnings.push(`${at}: duplicate port name ${JSON.stringify(name)} with ${other}, services and probes that select ports by name will use ${other}`);
      else portNames.set(name, at);
    });
  });

  const grace = spec.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace < 0) warnings.push(`${child(base, 'spec', 'terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1`);

  if (affinity) {
    for (const kind of ['podAffinity', 'podAntiAffinity']) {
      const a = obj(own(affinity, kind));
      if (!a) continue;
      warnings.push(...nullSelectorWarnings(a.requiredDuringSchedulingIgnoredDuringExecution, child(base, 'spec', 'affinity', kind, 'requiredDuringSchedulingIgnoredDuringExecution'), false));
      warnings.push(...nullSelectorWarnings(a.preferredDuringSchedulingIgnoredDuringExecution, child(base, 'spec', 'affinity', kind, 'preferredDuringSchedulingIgnoredDuringExecution'), true));
    }
  }
  return warnings;
}

/** GetWarningsForPodTemplate at `path` (spec.template, spec.jobTemplate.spec.template, template). */
export function podTemplateWarnings(path: Path, template: JsonValue | undefined): string[] {
  const t = obj(template);
  if (!t) return [];
  return podSpecWarnings(path, obj(t.spec) ?? {}, obj(t.metadata) ?? {});
}
