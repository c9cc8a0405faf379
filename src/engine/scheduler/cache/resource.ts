/**
 * framework.Resource: quantities as plain numbers (milli-CPU, bytes, counts), plus how a pod's
 * requests are aggregated (component-helpers' resource.PodRequests, release-1.35): the sum of
 * the containers, the larger of that and any init container (restartable sidecars add up),
 * pod-level requests overriding cpu/memory, then the pod overhead.
 */
import { Quantity, quantityOrUndefined } from '../../api/quantity';
import type { Container, Pod, ResourceList } from '../api';

export const RESOURCE_CPU = 'cpu';
export const RESOURCE_MEMORY = 'memory';
export const RESOURCE_EPHEMERAL_STORAGE = 'ephemeral-storage';
export const RESOURCE_PODS = 'pods';

/** The scheduler's stand-ins for a container that requests no CPU or memory (scoring only). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

export class Resource {
  milliCPU = 0;
  memory = 0;
  ephemeralStorage = 0;
  allowedPodNumber = 0;
  /** Extended resources, hugepages, attachable volumes: resource name -> value. */
  scalar: Map<string, number> | null = null;

  static from(list: ResourceList | null | undefined): Resource {
    const r = new Resource();
    if (list) r.addList(toQuantities(list));
    return r;
  }

  addList(list: ReadonlyMap<string, Quantity>): void {
    for (const [name, q] of list) {
      switch (name) {
        case RESOURCE_CPU:
          this.milliCPU += q.milliValue();
          break;
        case RESOURCE_MEMORY:
          this.memory += q.value();
          break;
        case RESOURCE_PODS:
          this.allowedPodNumber += q.value();
          break;
        case RESOURCE_EPHEMERAL_STORAGE:
          this.ephemeralStorage += q.value();
          break;
        default:
          if (isScalarResourceName(name)) this.addScalar(name, q.value());
      }
    }
  }

  addScalar(name: string, value: number): void {
    const scalar = (this.scalar ??= new Map());
    scalar.set(name, (scalar.get(name) ?? 0) + value);
  }

  scalarValue(name: string): number {
    return this.scalar?.get(name) ?? 0;
  }

  /** Adds (sign 1) or subtracts (sign -1) another resource. */
  accumulate(other: Resource, sign: 1 | -1): void {
    this.milliCPU += sign * other.milliCPU;
    this.memory += sign * other.memory;
    this.ephemeralStorage += sign * other.ephemeralStorage;
    if (other.scalar) for (const [name, v] of other.scalar) this.addScalar(name, sign * v);
  }

  clone(): Resource {
    const r = new Resource();
    r.milliCPU = this.milliCPU;
    r.memory = this.memory;
    r.ephemeralStorage = this.ephemeralStorage;
    r.allowedPodNumber = this.allowedPodNumber;
    r.scalar = this.scalar ? new Map(this.scalar) : null;
    return r;
  }

  isEmpty(): boolean {
    return this.milliCPU === 0 && this.memory === 0 && this.ephemeralStorage === 0 && (this.scalar === null || this.scalar.size === 0);
  }
}

const NATIVE_PREFIX = 'kubernetes.io/';

/** IsExtendedResourceName: a domain-qualified name outside kubernetes.io, not a quota "requests." name. */
export function isExtendedResourceName(name: string): boolean {
  if (!name.includes('/') || name.startsWith(NATIVE_PREFIX) || name.startsWith('requests.')) return false;
  return true;
}

/** IsScalarResourceName: extended, hugepages-*, kubernetes.io/-prefixed native, attachable-volumes-*. */
export function isScalarResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith('hugepages-') || name.startsWith(NATIVE_PREFIX) || name.startsWith('attachable-volumes-');
}

/** A parsed quantity with its integer forms, and whether they are exact (no rounding up). */
interface ParsedQuantity {
  readonly q: Quantity;
  readonly milli: number;
  readonly value: number;
  readonly exact: boolean;
}

const parsed = new Map<string, ParsedQuantity | null>();

/** Parses a quantity (memoized: manifests repeat the same few strings); invalid text counts as absent. */
function parse(value: string | number): ParsedQuantity | null {
  const text = String(value);
  let p = parsed.get(text);
  if (p === undefined) {
    const r = quantityOrUndefined(text);
    if (!r) {
      p = null;
    } else {
      const milli = r.milliValue();
      const v = r.value();
      p = { q: r, milli, value: v, exact: r.cmp(Quantity.fromMilli(milli)) === 0 && r.cmp(Quantity.fromInt(v)) === 0 };
    }
    if (parsed.size < 10_000) parsed.set(text, p);
  }
  return p;
}

export function quantityOf(value: string | number): Quantity | null {
  return parse(value)?.q ?? null;
}

function toQuantities(list: ResourceList): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const name of Object.keys(list)) {
    const q = quantityOf(list[name]!);
    if (q) out.set(name, q);
  }
  return out;
}

function addInto(target: Map<string, Quantity>, list: ReadonlyMap<string, Quantity>): void {
  for (const [name, q] of list) {
    const cur = target.get(name);
    target.set(name, cur ? cur.add(q) : q);
  }
}

function maxInto(target: Map<string, Quantity>, list: ReadonlyMap<string, Quantity>): void {
  for (const [name, q] of list) {
    const cur = target.get(name);
    if (!cur || q.cmp(cur) > 0) target.set(name, q);
  }
}

const POD_LEVEL_RESOURCES = new Set([RESOURCE_CPU, RESOURCE_MEMORY]);
const isSupportedPodLevelResource = (name: string): boolean => POD_LEVEL_RESOURCES.has(name) || name.startsWith('hugepages-');

const NON_MISSING = new Map<string, Quantity>([
  [RESOURCE_CPU, Quantity.fromMilli(DEFAULT_MILLI_CPU_REQUEST)],
  [RESOURCE_MEMORY, Quantity.fromInt(DEFAULT_MEMORY_REQUEST)],
]);

function containerRequests(c: Container, nonMissing: boolean): Map<string, Quantity> {
  const reqs = c.resources?.requests ? toQuantities(c.resources.requests) : new Map<string, Quantity>();
  if (nonMissing) {
    for (const [name, q] of NON_MISSING) {
      if (!reqs.has(name)) reqs.set(name, q);
    }
  }
  return reqs;
}

/**
 * resource.PodRequests. With `nonMissing`, a container that states no cpu or memory request
 * counts as 100m / 200Mi (NonMissingContainerRequests, what scoring uses).
 */
export function podRequests(pod: Pod, nonMissing: boolean): Map<string, Quantity> {
  const spec = pod.spec;
  const reqs = new Map<string, Quantity>();
  for (const c of spec.containers ?? []) addInto(reqs, containerRequests(c, nonMissing));
  const restartable = new Map<string, Quantity>();
  const initMax = new Map<string, Quantity>();
  for (const c of spec.initContainers ?? []) {
    let creqs = containerRequests(c, nonMissing);
    if (c.restartPolicy === 'Always') {
      addInto(reqs, creqs);
      addInto(restartable, creqs);
      creqs = new Map(restartable);
    } else {
      const tmp = new Map<string, Quantity>();
      addInto(tmp, creqs);
      addInto(tmp, restartable);
      creqs = tmp;
    }
    maxInto(initMax, creqs);
  }
  maxInto(reqs, initMax);
  const podLevel = spec.resources?.requests;
  if (podLevel && Object.keys(podLevel).some(isSupportedPodLevelResource)) {
    for (const [name, q] of toQuantities(podLevel)) {
      if (isSupportedPodLevelResource(name)) reqs.set(name, q);
    }
  }
  if (spec.overhead) addInto(reqs, toQuantities(spec.overhead));
  return reqs;
}

export interface PodResources {
  requests: Resource;
  nonZeroCPU: number;
  nonZeroMemory: number;
}

/**
 * The common case in numbers: only regular containers, whole units. Summing the per-container
 * values is then exactly the value of the sum.
 */
function plainPodResources(pod: Pod): PodResources | undefined {
  const spec = pod.spec;
  if ((spec.initContainers?.length ?? 0) > 0 || spec.overhead || spec.resources?.requests) return undefined;
  const requests = new Resource();
  let nonZeroCPU = 0;
  let nonZeroMemory = 0;
  for (const c of spec.containers ?? []) {
    const reqs = c.resources?.requests;
    let cpu = false;
    let mem = false;
    if (reqs) {
      for (const name of Object.keys(reqs)) {
        const p = parse(reqs[name]!);
        if (!p) continue;
        if (!p.exact) return undefined;
        switch (name) {
          case RESOURCE_CPU:
            requests.milliCPU += p.milli;
            nonZeroCPU += p.milli;
            cpu = true;
            break;
          case RESOURCE_MEMORY:
            requests.memory += p.value;
            nonZeroMemory += p.value;
            mem = true;
            break;
          case RESOURCE_EPHEMERAL_STORAGE:
            requests.ephemeralStorage += p.value;
            break;
          case RESOURCE_PODS:
            requests.allowedPodNumber += p.value;
            break;
          default:
            if (isScalarResourceName(name)) requests.addScalar(name, p.value);
        }
      }
    }
    if (!cpu) nonZeroCPU += DEFAULT_MILLI_CPU_REQUEST;
    if (!mem) nonZeroMemory += DEFAULT_MEMORY_REQUEST;
  }
  return { requests, nonZeroCPU, nonZeroMemory };
}

/** The pod's requests as the scheduler accounts them, and the non-zero CPU/memory used for scoring. */
export function computePodResources(pod: Pod): PodResources {
  const plain = plainPodResources(pod);
  if (plain) return plain;
  const requests = new Resource();
  requests.addList(podRequests(pod, false));
  const nonZero = podRequests(pod, true);
  return {
    requests,
    nonZeroCPU: nonZero.get(RESOURCE_CPU)?.milliValue() ?? 0,
    nonZeroMemory: nonZero.get(RESOURCE_MEMORY)?.value() ?? 0,
  };
}
