/**
 * IPAddress rules (pkg/apis/networking/validation): the Service IP allocator's objects, named by
 * the address they reserve.
 */
import { invalid, Path, required, type ErrorList } from '../../../api/field';
import { isValidIP } from '../../../api/ip';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { obj, str } from '../core/json';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';

/** ValidateIPAddressName: the name is the address itself, in canonical form. */
const validateIPAddressName = (name: string): string[] => isValidIP(undefined, name).map((e) => e.detail);

function validateParentRef(ref: unknown, fldPath: Path): ErrorList {
  const r = obj(ref);
  if (!r) return [required(fldPath.child('parentRef'), '')];
  const p = fldPath.child('parentRef');
  const errs: ErrorList = [];
  const group = str(r['group']);
  if (group !== '') for (const msg of isDNS1123Subdomain(group)) errs.push(invalid(p.child('group'), group, msg));
  for (const field of ['resource', 'name'] as const) {
    const v = str(r[field]);
    if (v === '') errs.push(required(p.child(field), ''));
    else for (const msg of isValidPathSegmentName(v)) errs.push(invalid(p.child(field), v, msg));
  }
  const namespace = str(r['namespace']);
  if (namespace !== '') for (const msg of isValidPathSegmentName(namespace)) errs.push(invalid(p.child('namespace'), namespace, msg));
  return errs;
}

registerValidator('networking.k8s.io', 'IPAddress', {
  create: (ip: KubeObject) => [
    ...validateObjectMeta(ip.metadata, false, validateIPAddressName, Path.root('metadata')),
    ...validateParentRef(obj(ip['spec'])?.['parentRef'], Path.root('spec')),
  ],
  update: (ip, old) => [
    ...validateObjectMeta(ip.metadata, false, validateIPAddressName, Path.root('metadata')),
    ...validateParentRef(obj(ip['spec'])?.['parentRef'], Path.root('spec')),
    ...validateObjectMetaUpdate(ip.metadata, old.metadata, Path.root('metadata')),
    ...validateImmutableField(obj(ip['spec'])?.['parentRef'] ?? null, obj(old['spec'])?.['parentRef'] ?? null, Path.root('spec', 'parentRef')),
  ],
});
