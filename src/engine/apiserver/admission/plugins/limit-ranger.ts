/**
 * LimitRanger: a namespace's LimitRanges give containers default requests and limits (recorded
 * in the kubernetes.io/limit-ranger annotation) and bound them per Container and per Pod with
 * min, max and maxLimitRequestRatio, refusing with LimitRanger's own texts.
 */
import { aggregateMessage } from '../../../api/field';
import { quantityOrUndefined, Quantity } from '../../../api/quantity';
import { isObject, type JsonObject, type KubeObject } from '../../../api/types';
import { admissionForbidden } from '../errors';
import { isPod, type AdmissionAttributes, type AdmissionContext, type AdmissionPlugin } from '../types';
import { informerFirst } from '../live-lookup';
import { assignOwn, setOwn } from '../../../api/own';

const LIMIT_RANGES = { group: '', resource: 'limitranges' };
const ANNOTATION = 'kubernetes.io/limit-ranger';
// Quantities up to this can be compared in milli-units without overflowing int64.
const MAX_MILLI_VALUE = 9223372036854775;

type ResourceList = Map<string, Quantity>;

function resourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (!isObject(v)) return out;
  for (const k of Object.keys(v).sort()) {
    const raw = v[k];
    if (typeof raw !== 'string' && typeof raw !== 'number') continue;
    const q = quantityOrUndefined(String(raw));
    if (q) out.set(k, q);
  }
  return out;
}

interface LimitItem {
  type: string;
  min: ResourceList;
  max: ResourceList;
  ratio: ResourceList;
  defaults: JsonObject;
  defaultRequests: JsonObject;
}

function limitItems(lr: KubeObject): LimitItem[] {
  const spec = isObject(lr.spec) ? lr.spec : {};
  const limits = Array.isArray(spec.limits) ? spec.limits.filter(isObject) : [];
  return limits.map((l) => ({
    type: typeof l.type === 'string' ? l.type : '',
    min: resourceList(l.min),
    max: resourceList(l.max),
    ratio: resourceList(l.maxLimitRequestRatio),
    defaults: isObject(l.default) ? l.default : {},
    defaultRequests: isObject(l.defaultRequest) ? l.defaultRequest : {},
  }));
}

const podContainers = (pod: KubeObject): JsonObject[] => {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return Array.isArray(spec.containers) ? spec.containers.filter(isObject) : [];
};

function resourcesOf(c: JsonObject): JsonObject {
  if (!isObject(c.resources)) c.resources = {};
  return c.resources as JsonObject;
}

/** Fills in what containers leave out; returns the annotation's account of it. */
function mergeDefaults(pod: KubeObject, items: LimitItem[]): string[] {
  const limits: JsonObject = {};
  const requests: JsonObject = {};
  for (const item of items) {
    if (item.type !== 'Container') continue;
    assignOwn(requests, item.defaultRequests);
    assignOwn(limits, item.defaults);
  }
  const notes: string[] = [];
  for (const c of podContainers(pod)) {
    const r = resourcesOf(c);
    const have = { limits: isObject(r.limits) ? r.limits : {}, requests: isObject(r.requests) ? r.requests : {} };
    const setLimits = Object.keys(limits).filter((k) => !Object.hasOwn(have.limits, k));
    const setRequests = Object.keys(requests).filter((k) => !Object.hasOwn(have.requests, k));
    for (const k of setLimits) setOwn(have.limits, k, limits[k]);
    for (const k of setRequests) setOwn(have.requests, k, requests[k]);
    r.limits = have.limits;
    r.requests = have.requests;
    const name = typeof c.name === 'string' ? c.name : '';
    if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for container ${name}`);
    if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for container ${name}`);
  }
  return notes;
}

/** The three values at one precision: milli-units when nothing overflows. */
function comparable(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity): [number, number, number] {
  const zero = Quantity.fromInt(0);
  const r = req ?? zero;
  const l = lim ?? zero;
  if (r.value() <= MAX_MILLI_VALUE && l.value() <= MAX_MILLI_VALUE && enforced.value() <= MAX_MILLI_VALUE) {
    return [r.milliValue(), l.milliValue(), enforced.milliValue()];
  }
  return [r.value(), l.value(), enforced.value()];
}

function minConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req, lim, enforced);
  if (!req) return `Minimum ${name} usage per ${type} is ${enforced.toString()}.  No request is specified.`;
  if (r < e) return `Minimum ${name} usage per ${type} is ${enforced.toString()}, but request is ${req.toString()}.`;
  if (lim && l < e) return `Minimum ${name} usage per ${type} is ${enforced.toString()}, but limit is ${lim.toString()}.`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req, lim, enforced);
  if (!lim) return `Maximum ${name} usage per ${type} is ${enforced.toString()}.  No limit is specified.`;
  if (l > e) return `Maximum ${name} usage per ${type} is ${enforced.toString()}, but limit is ${lim.toString()}.`;
  if (req && r > e) return `Maximum ${name} usage per ${type} is ${enforced.toString()}, but request is ${req.toString()}.`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = comparable(req, lim, enforced);
  if (!req || r === 0) return `${name} max limit to request ratio per ${type} is ${enforced.toString()}, but no request is specified or request is 0.`;
  if (!lim || l === 0) return `${name} max limit to request ratio per ${type} is ${enforced.toString()}, but no limit is specified or limit is 0.`;
  const observed = l / r;
  const milli = enforced.value() <= MAX_MILLI_VALUE;
  if ((milli ? observed * 1000 : observed) > (milli ? enforced.milliValue() : enforced.value())) {
    return `${name} max limit to request ratio per ${type} is ${enforced.toString()}, but provided ratio is ${observed.toFixed(6)}.`;
  }
  return undefined;
}

/** The pod's total of a resource, only when every container sets it (LimitRanger's sum). */
function sum(lists: ResourceList[]): ResourceList {
  const out: ResourceList = new Map();
  const keys = new Set(lists.flatMap((l) => [...l.keys()]));
  for (const key of [...keys].sort()) {
    if (!lists.every((l) => l.has(key))) continue;
    const total = lists.reduce((acc, l) => acc + (key === 'cpu' ? l.get(key)!.milliValue() : l.get(key)!.value()), 0);
    out.set(key, key === 'cpu' ? Quantity.fromMilli(total) : Quantity.fromInt(total));
  }
  return out;
}

function check(item: LimitItem, requests: ResourceList, limits: ResourceList): string[] {
  const errs: string[] = [];
  const push = (e: string | undefined) => e && errs.push(e);
  for (const [k, v] of item.min) push(minConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of item.max) push(maxConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of item.ratio) push(ratioConstraint(item.type, k, v, requests, limits));
  return errs;
}

function podViolations(pod: KubeObject, items: LimitItem[]): string[] {
  const errs: string[] = [];
  const containers = podContainers(pod).map((c) => {
    const r = isObject(c.resources) ? c.resources : {};
    return { requests: resourceList(r.requests), limits: resourceList(r.limits) };
  });
  for (const item of items) {
    if (item.type === 'Container') for (const c of containers) errs.push(...check(item, c.requests, c.limits));
    if (item.type === 'Pod') {
      errs.push(...check(item, sum(containers.map((c) => c.requests)), sum(containers.map((c) => c.limits))));
    }
  }
  return errs;
}

/** LimitRanger with its own live-lookup cache: the namespace's LimitRanges from the informer, listed live only when it has none (see informerFirst). */
export function createLimitRanger(): AdmissionPlugin {
  const lister = informerFirst(LIMIT_RANGES);
  const limitRanges = (a: AdmissionAttributes, ctx: AdmissionContext): Promise<readonly KubeObject[]> => lister(a.namespace, ctx);
  return {
    name: 'LimitRanger',
    handles: (a) => a.operation === 'CREATE' && isPod(a),
    async admit(a, ctx) {
      if (!a.object) return;
      const notes: string[] = [];
      for (const lr of await limitRanges(a, ctx)) notes.push(...mergeDefaults(a.object, limitItems(lr)));
      if (notes.length === 0) return;
      const value = 'LimitRanger plugin set: ' + notes.join('; ');
      a.object.metadata.annotations = { ...(a.object.metadata.annotations ?? {}), [ANNOTATION]: value };
      return value;
    },
    async validate(a, ctx) {
      if (!a.object) return;
      for (const lr of await limitRanges(a, ctx)) {
        const errs = podViolations(a.object, limitItems(lr));
        if (errs.length > 0) throw admissionForbidden(a, aggregateMessage(errs.map((message) => ({ message }))));
      }
    },
  };
}
