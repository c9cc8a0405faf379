/**
 * Request-level pieces around the field manager: the default manager name for writes without
 * ?fieldManager, and the identity checks the patch handler runs on the patched object (an
 * apply that creates must name the object the URL names).
 */
import type { JsonObject } from '../../api/types';
import { isObject } from '../../api/types';
import { badRequestError, type StatusError } from '../../api/status';
import { FIELD_MANAGER_MAX_LENGTH, isGoPrint } from '../patch/options';

/**
 * managerOrUserAgent: the fieldManager, else the user agent up to its first "/" (printable
 * characters only, at most 128 bytes): "kubectl/v1.35.0 (linux/amd64) kubernetes/…" -> "kubectl".
 */
export function managerOrUserAgent(manager: string | undefined, userAgent: string): string {
  if (manager) return manager;
  const prefix = userAgent.split('/')[0]!;
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    if (!isGoPrint(ch)) continue;
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/**
 * EnsureObjectNamespaceMatchesRequestNamespace then checkName, on the patched object: an empty
 * namespace takes the request's, a cluster-scoped request clears it, and the name must be the
 * URL's. Returns the error kube-apiserver answers with, if any.
 */
export function checkPatchedIdentity(obj: JsonObject, name: string, namespace: string): StatusError | undefined {
  const meta = isObject(obj.metadata) ? obj.metadata : (obj.metadata = {});
  const objNamespace = typeof meta.namespace === 'string' ? meta.namespace : '';
  if (objNamespace !== namespace) {
    if (objNamespace === '') meta.namespace = namespace;
    else if (namespace === '') delete meta.namespace;
    else return badRequestError('the namespace of the provided object does not match the namespace sent on the request');
  }
  const objName = typeof meta.name === 'string' ? meta.name : '';
  if (objName !== name) return badRequestError(`the name of the object (${objName}) does not match the name on the URL (${name})`);
  return undefined;
}
