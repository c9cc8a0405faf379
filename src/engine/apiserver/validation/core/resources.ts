/**
 * Resource names and quantities: container and pod-level requirements (requests <= limits,
 * hugepages, extended resources), quantity rules shared with quota, limit ranges and nodes.
 */
import { duplicate, FieldError, forbidden, invalid, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { isQualifiedName } from '../../../api/names';
import { entries, obj, objs, str, type Obj } from './json';
import { isNotIntegerErrorMsg, validateNonnegativeQuantity } from './numbers';
import { parseQuantity, quantitySyntaxError, Quantity } from './quantity';
import { validateDNS1123Label } from './formats';
import {
  isExtendedResourceName,
  isHugePageResourceName,
  isHugePageValueDivisible,
  isIntegerResourceName,
  isNativeResource,
  isOvercommitAllowed,
  isStandardContainerResourceName,
  isStandardResourceName,
} from './resourcenames';

export type ResourceNameValidator = (name: string, fldPath: Path) => ErrorList;

/** A compute resource name: a qualified name, and standard unless it has a domain prefix. */
export function validateResourceName(name: string, fldPath: Path): ErrorList {
  const errs = isQualifiedName(name).map((m) => invalid(fldPath, name, m));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) return [invalid(fldPath, name, 'must be a standard resource type or fully qualified')];
  return [];
}

export function validateContainerResourceName(name: string, fldPath: Path): ErrorList {
  const errs = validateResourceName(name, fldPath);
  if (!name.includes('/')) {
    if (!isStandardContainerResourceName(name)) return [...errs, invalid(fldPath, name, 'must be a standard resource for containers')];
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    return [...errs, invalid(fldPath, name, "doesn't follow extended resource name standard")];
  }
  return errs;
}

const supportedPodLevelResources = ['cpu', 'hugepages-', 'memory'];

function validatePodResourceName(name: string, fldPath: Path): ErrorList {
  const errs = validateResourceName(name, fldPath);
  if (errs.length > 0) return errs;
  if (name !== 'cpu' && name !== 'memory' && !isHugePageResourceName(name)) return [notSupported(fldPath, name, supportedPodLevelResources)];
  return [];
}

/** ValidateResourceQuantityValue: non-negative, and whole for integer resources. */
export function validateResourceQuantityValue(resource: string, q: Quantity, fldPath: Path): ErrorList {
  const errs = validateNonnegativeQuantity(q, fldPath);
  if (isIntegerResourceName(resource) && q.milliValue() % 1000 !== 0) errs.push(invalid(fldPath, q.toString(), isNotIntegerErrorMsg));
  return errs;
}

/** A resource list's entries, parsed; malformed quantities are reported and skipped. */
export function quantities(list: unknown, fldPath: Path, errs: FieldError[]): [string, Quantity][] {
  const out: [string, Quantity][] = [];
  for (const [name, v] of entries(list)) {
    const q = parseQuantity(v);
    if (q) out.push([name, q]);
    else {
      const syntax = quantitySyntaxError(v, fldPath.key(name));
      if (syntax) errs.push(syntax);
    }
  }
  return out;
}

export function validateContainerResourceRequirements(requirements: unknown, podClaimNames: Set<string>, fldPath: Path, allowIndivisibleHugePages: boolean): ErrorList {
  return validateResourceRequirements(obj(requirements) ?? {}, validateContainerResourceName, podClaimNames, fldPath, allowIndivisibleHugePages);
}

export function validatePodResourceRequirements(requirements: Obj, podClaimNames: Set<string>, fldPath: Path, allowIndivisibleHugePages: boolean): ErrorList {
  return validateResourceRequirements(requirements, validatePodResourceName, podClaimNames, fldPath, allowIndivisibleHugePages);
}

function validateResourceRequirements(
  requirements: Obj,
  nameFn: ResourceNameValidator,
  podClaimNames: Set<string>,
  fldPath: Path,
  allowIndivisibleHugePages: boolean,
): ErrorList {
  const errs: ErrorList = [];
  const limPath = fldPath.child('limits');
  const reqPath = fldPath.child('requests');
  const limits = new Map(quantities(requirements['limits'], limPath, errs));
  const requests = quantities(requirements['requests'], reqPath, errs);
  let cpuOrMemory = false;
  let hugePages = false;
  const hugePageErrors = (name: string, q: Quantity, path: Path): void => {
    if (!isHugePageResourceName(name)) return;
    hugePages = true;
    if (!allowIndivisibleHugePages && !isHugePageValueDivisible(name, q)) {
      errs.push(invalid(path, q.toString(), `${q.toString()} is not positive integer multiple of ${name}`));
    }
  };
  for (const [name, q] of limits) {
    const path = limPath.key(name);
    errs.push(...nameFn(name, path));
    errs.push(...validateResourceQuantityValue(name, q, path));
    hugePageErrors(name, q, path);
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, q] of requests) {
    const path = reqPath.key(name);
    errs.push(...nameFn(name, path));
    errs.push(...validateResourceQuantityValue(name, q, path));
    const limit = limits.get(name);
    if (limit) {
      // Resources that cannot be overcommitted need requests equal to limits.
      if (q.cmp(limit) !== 0 && !isOvercommitAllowed(name)) {
        errs.push(invalid(reqPath, q.toString(), `must be equal to ${name} limit of ${limit.toString()}`));
      } else if (q.cmp(limit) > 0) {
        errs.push(invalid(reqPath, q.toString(), `must be less than or equal to ${name} limit of ${limit.toString()}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    hugePageErrors(name, q, path);
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) errs.push(forbidden(fldPath, 'HugePages require cpu or memory'));
  errs.push(...validateResourceClaimNames(requirements['claims'], podClaimNames, fldPath.child('claims')));
  return errs;
}

/** resources.claims must name entries of spec.resourceClaims, each at most once. */
function validateResourceClaimNames(claims: unknown, podClaimNames: Set<string>, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const names = new Set<string>();
  objs(claims).forEach((claim, i) => {
    const name = str(claim['name']);
    if (name === '') {
      errs.push(required(fldPath.index(i), ''));
      return;
    }
    if (names.has(name)) {
      errs.push(duplicate(fldPath.index(i), name));
    } else {
      const request = str(claim['request']);
      let key = name;
      if (request !== '') {
        errs.push(...validateDNS1123Label(request, fldPath.index(i).child('request')));
        key += '/' + request;
      }
      if (names.has(key)) {
        errs.push(duplicate(fldPath.index(i), key));
      } else if (request === '') {
        for (const k of names) if (k.includes('/') && k.slice(0, k.indexOf('/')) === name) errs.push(duplicate(fldPath.index(i), name));
      }
      names.add(key);
    }
    if (!podClaimNames.has(name)) {
      const listed = [...podClaimNames].sort().join(', ');
      const detail = 'must be one of the names in pod.spec.resourceClaims' + (podClaimNames.size === 0 ? ' which is empty' : `: ${listed}`);
      errs.push(new FieldError('FieldValueNotFound', fldPath.index(i).toString(), name, detail));
    }
  });
  return errs;
}

/**
 * Pod-level resources (PodLevelResources is beta and on in 1.35): valid names and quantities,
 * at least the containers' aggregate requests, and no container limit above the pod's.
 */
export function validatePodResources(spec: Obj, podClaimNames: Set<string>, fldPath: Path, allowIndivisibleHugePages: boolean): ErrorList {
  const resources = obj(spec['resources']);
  if (!resources) return [];
  const errs: ErrorList = [];
  if (resources['claims'] !== undefined && resources['claims'] !== null) {
    errs.push(forbidden(fldPath.child('claims'), 'claims cannot be set for Resources at pod-level'));
  }
  errs.push(...validatePodResourceRequirements(resources, podClaimNames, fldPath, allowIndivisibleHugePages));
  errs.push(...validatePodResourceConsistency(spec, resources, fldPath));
  return errs;
}

function requestsOf(c: Obj): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, v] of entries(obj(c['resources'])?.['requests'])) {
    const q = parseQuantity(v);
    if (q) out.set(name, q);
  }
  return out;
}

function addInto(into: Map<string, Quantity>, from: Map<string, Quantity>): void {
  for (const [name, q] of from) into.set(name, into.get(name)?.add(q) ?? q);
}

function maxInto(into: Map<string, Quantity>, from: Map<string, Quantity>): void {
  for (const [name, q] of from) {
    const cur = into.get(name);
    if (!cur || q.cmp(cur) > 0) into.set(name, q);
  }
}

/** resourcehelper.AggregateContainerRequests: sidecars add up, each init container is a peak. */
function aggregateContainerRequests(spec: Obj): Map<string, Quantity> {
  const reqs = new Map<string, Quantity>();
  for (const c of objs(spec['containers'])) addInto(reqs, requestsOf(c));
  const sidecars = new Map<string, Quantity>();
  const initPeak = new Map<string, Quantity>();
  for (const c of objs(spec['initContainers'])) {
    const own = requestsOf(c);
    if (c['restartPolicy'] === 'Always') {
      addInto(reqs, own);
      addInto(sidecars, own);
      maxInto(initPeak, sidecars);
    } else {
      const tmp = new Map<string, Quantity>();
      addInto(tmp, own);
      addInto(tmp, sidecars);
      maxInto(initPeak, tmp);
    }
  }
  maxInto(reqs, initPeak);
  return reqs;
}

function validatePodResourceConsistency(spec: Obj, resources: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const podRequests = new Map<string, Quantity>();
  for (const [name, v] of entries(resources['requests'])) {
    const q = parseQuantity(v);
    if (q) podRequests.set(name, q);
  }
  const aggregate = [...aggregateContainerRequests(spec)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, ctrReqs] of aggregate) {
    const podReq = podRequests.get(name) ?? Quantity.fromInt(0);
    if (ctrReqs.cmp(podReq) > 0) {
      errs.push(invalid(fldPath.child('requests').key(name), podReq.toString(), `must be greater than or equal to aggregate container requests of ${ctrReqs.toString()}`));
    }
  }
  const podLimits = new Map<string, Quantity>();
  for (const [name, v] of entries(resources['limits'])) {
    const q = parseQuantity(v);
    if (q) podLimits.set(name, q);
  }
  objs(spec['containers']).forEach((c, i) => {
    for (const [name, v] of entries(obj(c['resources'])?.['limits'])) {
      const limit = parseQuantity(v);
      const podLimit = podLimits.get(name);
      if (limit && podLimit && limit.cmp(podLimit) > 0) {
        const path = fldPath.child('containers').index(i).key(name).child('limits');
        errs.push(invalid(path, limit.toString(), `must be less than or equal to pod limits of ${podLimit.toString()}`));
      }
    }
  });
  return errs;
}

/** validateBasicResource: a non-negative value (checked on the rounded-up integer value). */
export function validateBasicResource(q: Quantity, fldPath: Path): ErrorList {
  return q.value() < 0 ? [invalid(fldPath, q.value(), 'must be a valid resource quantity')] : [];
}
