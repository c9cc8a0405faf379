/**
 * framework.PodInfo: a pod with what scheduling needs from it computed once (requests, host
 * ports, parsed affinity terms), so the per-node loops read fields instead of re-parsing specs.
 */
import { Selector, labelSelectorAsSelector, type Labels } from '../../api/labels';
import { ok, type Result } from '../../api/result';
import type { Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../api';
import { podKey, podPriority } from '../api';
import { deepEqual } from '../../api/deep-equal';
import { computePodResources, type Resource } from './resource';

/** A parsed pod (anti-)affinity term: whose pods, where. */
export class AffinityTerm {
  constructor(
    readonly namespaces: Set<string>,
    public namespaceSelector: Selector,
    readonly selector: Selector,
    readonly topologyKey: string,
  ) {}

  /** Whether `pod` (in a namespace labelled `nsLabels`) is one of the pods this term is about. */
  matches(pod: Pod, nsLabels: Labels): boolean {
    if (this.namespaces.has(pod.metadata.namespace) || this.namespaceSelector.matches(nsLabels)) {
      return this.selector.matches(pod.metadata.labels ?? EMPTY_LABELS);
    }
    return false;
  }

  clone(): AffinityTerm {
    return new AffinityTerm(new Set(this.namespaces), this.namespaceSelector, this.selector, this.topologyKey);
  }
}

export interface WeightedAffinityTerm {
  readonly term: AffinityTerm;
  readonly weight: number;
}

export interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

export const EMPTY_LABELS: Labels = Object.freeze({});

/** normalizedImageName: an image without a tag means ":latest". */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? name + ':latest' : name;
}

export class PodInfo {
  readonly key: string;
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  readonly labels: Labels;
  readonly priority: number;
  readonly requests: Resource;
  readonly nonZeroCPU: number;
  readonly nonZeroMemory: number;
  readonly hostPorts: readonly HostPort[];
  readonly requiredAffinityTerms: AffinityTerm[];
  readonly requiredAntiAffinityTerms: AffinityTerm[];
  readonly preferredAffinityTerms: WeightedAffinityTerm[];
  readonly preferredAntiAffinityTerms: WeightedAffinityTerm[];
  /** The pod has pod affinity or anti-affinity of any kind (NodeInfo.PodsWithAffinity). */
  readonly hasAffinity: boolean;
  readonly hasRequiredAntiAffinity: boolean;
  /** "namespace/claim" for each PVC volume. */
  readonly pvcKeys: readonly string[];
  /** The images of the init containers, then the containers, as ImageLocality looks them up on nodes. */
  readonly images: readonly string[];
  /** A label selector in an affinity term did not parse (the API server does not validate them all). */
  readonly parseError: string | undefined;

  constructor(
    readonly pod: Pod,
    /** The same pod computed before (a newer version, or the one being assumed): reused when its spec is the same. */
    from?: PodInfo,
  ) {
    const meta = pod.metadata;
    this.key = podKey(pod);
    this.uid = meta.uid;
    this.namespace = meta.namespace;
    this.name = meta.name;
    this.labels = meta.labels ?? EMPTY_LABELS;
    this.priority = podPriority(pod);
    const same = from !== undefined && sameSchedulingSpec(from.pod, pod);
    const res = same ? from : computePodResources(pod);
    this.requests = res.requests;
    this.nonZeroCPU = res.nonZeroCPU;
    this.nonZeroMemory = res.nonZeroMemory;
    this.hostPorts = same ? from.hostPorts : hostPortsOf(pod);
    const errors: string[] = [];
    const affinity = pod.spec.affinity;
    const sameAffinity = same && from.namespace === meta.namespace;
    this.requiredAffinityTerms = sameAffinity ? from.requiredAffinityTerms : parseTerms(pod, affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, errors);
    this.requiredAntiAffinityTerms = sameAffinity ? from.requiredAntiAffinityTerms : parseTerms(pod, affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, errors);
    this.preferredAffinityTerms = sameAffinity ? from.preferredAffinityTerms : parseWeighted(pod, affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, errors);
    this.preferredAntiAffinityTerms = sameAffinity ? from.preferredAntiAffinityTerms : parseWeighted(pod, affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, errors);
    this.hasAffinity = !!affinity && (!!affinity.podAffinity || !!affinity.podAntiAffinity);
    this.hasRequiredAntiAffinity = (affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
    this.parseError = sameAffinity ? from.parseError : errors[0];
    this.pvcKeys = (pod.spec.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [`${meta.namespace}/${v.persistentVolumeClaim.claimName}`] : []));
    this.images = same ? from.images : [...(pod.spec.initContainers ?? []), ...pod.spec.containers].map((c) => normalizedImageName(c.image ?? ''));
  }

  get nodeName(): string {
    return this.pod.spec.nodeName ?? '';
  }

  get terminating(): boolean {
    return this.pod.metadata.deletionTimestamp !== undefined && this.pod.metadata.deletionTimestamp !== null;
  }
}

/**
 * Whether two versions of a pod agree on everything PodInfo derives from the spec. Informers share
 * unchanged sub-objects between versions, so identity settles the common cases cheaply.
 */
function sameSchedulingSpec(a: Pod, b: Pod): boolean {
  const x = a.spec;
  const y = b.spec;
  if (x === y) return true;
  return (
    (x.containers === y.containers || deepEqual(x.containers, y.containers)) &&
    (x.initContainers === y.initContainers || deepEqual(x.initContainers, y.initContainers)) &&
    (x.affinity === y.affinity || deepEqual(x.affinity, y.affinity)) &&
    deepEqual(x.overhead, y.overhead) &&
    deepEqual(x.resources, y.resources)
  );
}

/** GetNamespacesFromPodAffinityTerm: no namespaces and no selector means the pod's own namespace. */
function newAffinityTerm(pod: Pod, term: PodAffinityTerm): Result<AffinityTerm> {
  const selector = labelSelectorAsSelector(term.labelSelector);
  if (!selector.ok) return selector;
  const nsSelector = labelSelectorAsSelector(term.namespaceSelector);
  if (!nsSelector.ok) return nsSelector;
  const namespaces = new Set<string>();
  if ((term.namespaces?.length ?? 0) === 0 && !term.namespaceSelector) namespaces.add(pod.metadata.namespace);
  else for (const ns of term.namespaces ?? []) namespaces.add(ns);
  return ok(new AffinityTerm(namespaces, nsSelector.value, selector.value, term.topologyKey));
}

function parseTerms(pod: Pod, terms: PodAffinityTerm[] | null | undefined, errors: string[]): AffinityTerm[] {
  const out: AffinityTerm[] = [];
  for (const t of terms ?? []) {
    const parsed = newAffinityTerm(pod, t);
    if (!parsed.ok) errors.push(parsed.error);
    else out.push(parsed.value);
  }
  return out;
}

function parseWeighted(pod: Pod, terms: WeightedPodAffinityTerm[] | null | undefined, errors: string[]): WeightedAffinityTerm[] {
  const out: WeightedAffinityTerm[] = [];
  for (const t of terms ?? []) {
    if (!t.weight) continue;
    const parsed = newAffinityTerm(pod, t.podAffinityTerm);
    if (!parsed.ok) errors.push(parsed.error);
    else out.push({ term: parsed.value, weight: t.weight });
  }
  return out;
}

/** The host ports of the containers and the restartable (sidecar) init containers. */
function hostPortsOf(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  const collect = (ports: { hostPort?: number; hostIP?: string; protocol?: string }[] | undefined): void => {
    for (const p of ports ?? []) {
      if (p.hostPort && p.hostPort > 0) out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  };
  for (const c of pod.spec.containers ?? []) collect(c.ports);
  for (const c of pod.spec.initContainers ?? []) if (c.restartPolicy === 'Always') collect(c.ports);
  return out;
}

/** podMatchesAllAffinityTerms: the pod matches every term (and there is at least one). */
export function podMatchesAllAffinityTerms(terms: readonly AffinityTerm[], pod: Pod): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!t.matches(pod, EMPTY_LABELS)) return false;
  return true;
}
