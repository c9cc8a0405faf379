/**
 * CSIDriver rules (pkg/apis/storage/validation). The required booleans are defaulted, so these
 * errors mostly surface for objects written without defaulting. Upstream spells the attachRequired
 * path "attachedRequired".
 */
import { duplicate, invalid, notSupported, Path, required, tooLong, type ErrorList } from '../../../api/field';
import { isDNS1123Subdomain, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { arr, num, obj, objs, str } from '../core/json';
import { validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { goJson } from '../../../api/gofmt';

const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];
const lifecycleModes = ['Persistent', 'Ephemeral'];

/** ValidateCSIDriverName (core): a DNS subdomain of at most 63 characters. */
export function validateCSIDriverName(name: string, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (name.length === 0) errs.push(required(fldPath, ''));
  if (name.length > 63) errs.push(tooLong(fldPath, 63));
  for (const msg of isDNS1123Subdomain(name.toLowerCase())) errs.push(invalid(fldPath, name, msg));
  return errs;
}

function requiredBool(v: unknown, fldPath: Path): ErrorList {
  return typeof v === 'boolean' ? [] : [required(fldPath, '')];
}

function validateTokenRequests(requests: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const audiences = new Set<string>();
  objs(requests).forEach((r, i) => {
    const p = fldPath.index(i);
    const audience = str(r['audience']);
    if (audiences.has(audience)) {
      errs.push(duplicate(p.child('audience'), audience));
      return;
    }
    audiences.add(audience);
    const seconds = num(r['expirationSeconds']);
    if (seconds === undefined) return;
    if (seconds < 600) errs.push(invalid(p.child('expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds > 2 ** 32) errs.push(invalid(p.child('expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

function validateSpec(spec: Record<string, unknown>, fldPath: Path): ErrorList {
  const errs = [
    ...requiredBool(spec['attachRequired'], fldPath.child('attachedRequired')),
    ...requiredBool(spec['podInfoOnMount'], fldPath.child('podInfoOnMount')),
    ...requiredBool(spec['storageCapacity'], fldPath.child('storageCapacity')),
  ];
  const fsGroupPolicy = spec['fsGroupPolicy'];
  if (typeof fsGroupPolicy === 'string' && !fsGroupPolicies.includes(fsGroupPolicy)) {
    errs.push(notSupported(fldPath.child('fsGroupPolicy'), fsGroupPolicy, fsGroupPolicies));
  }
  errs.push(...validateTokenRequests(spec['tokenRequests'], fldPath.child('tokenRequests')));
  for (const mode of arr(spec['volumeLifecycleModes'])) {
    if (!lifecycleModes.includes(str(mode))) errs.push(notSupported(fldPath.child('volumeLifecycleModes'), str(mode), lifecycleModes));
  }
  // SELinuxMountReadWriteOncePod is on by default, which makes seLinuxMount required.
  errs.push(...requiredBool(spec['seLinuxMount'], fldPath.child('seLinuxMount')));
  const period = num(spec['nodeAllocatableUpdatePeriodSeconds']);
  if (period !== undefined && period < 10) {
    errs.push(invalid(fldPath.child('nodeAllocatableUpdatePeriodSeconds'), period, 'must be greater than or equal to 10 seconds'));
  }
  return errs;
}

function validateCSIDriver(d: KubeObject): ErrorList {
  return [...validateObjectMeta(d.metadata, false, nameIsDNSSubdomain, Path.root('metadata')), ...validateSpec(obj(d['spec']) ?? {}, Path.root('spec'))];
}

function immutable(now: unknown, before: unknown, fldPath: Path): ErrorList {
  return goJson(now ?? null) === goJson(before ?? null) ? [] : [invalid(fldPath, now ?? null, 'field is immutable')];
}

function validateCSIDriverUpdate(d: KubeObject, old: KubeObject): ErrorList {
  const spec = obj(d['spec']) ?? {};
  const oldSpec = obj(old['spec']) ?? {};
  return [
    ...validateObjectMetaUpdate(d.metadata, old.metadata, Path.root('metadata')),
    ...validateSpec(spec, Path.root('spec')),
    ...immutable(spec['attachRequired'], oldSpec['attachRequired'], Path.root('spec', 'attachedRequired')),
    ...immutable(arr(spec['volumeLifecycleModes']), arr(oldSpec['volumeLifecycleModes']), Path.root('spec', 'volumeLifecycleModes')),
  ];
}

registerValidator('storage.k8s.io', 'CSIDriver', {
  create: validateCSIDriver,
  update: (d, old) => [...validateCSIDriver(d), ...validateCSIDriverUpdate(d, old)],
});
