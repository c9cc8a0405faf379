/** ConfigMap: key names, no key in both data and binaryData, 1 MiB in total, immutability. */
import { forbidden, invalid, Path, tooLong, type ErrorList } from '../../../api/field';
import { isConfigMapKey, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { entries, obj, semanticEqual, str } from './json';
import { validateObjectMeta, validateObjectMetaUpdate } from './meta';

/** core.MaxSecretSize, also the ConfigMap limit. */
export const maxSecretSize = 1024 * 1024;

/** Decoded length of a base64 value, as []byte holds it after decoding. */
export function decodedLength(b64: string): number {
  return Buffer.from(b64, 'base64').length;
}

function validateConfigMap(cm: KubeObject): ErrorList {
  const errs = validateObjectMeta(cm.metadata, true, nameIsDNSSubdomain, Path.root('metadata'));
  const binary = obj(cm['binaryData']) ?? {};
  let totalSize = 0;
  for (const [key, value] of entries(cm['data'])) {
    const path = Path.root('data').key(key);
    errs.push(...isConfigMapKey(key).map((m) => invalid(path, key, m)));
    if (Object.hasOwn(binary, key)) errs.push(invalid(path, key, 'duplicate of key present in binaryData'));
    totalSize += Buffer.byteLength(str(value));
  }
  for (const [key, value] of entries(cm['binaryData'])) {
    errs.push(...isConfigMapKey(key).map((m) => invalid(Path.root('binaryData').key(key), key, m)));
    totalSize += decodedLength(str(value));
  }
  // The whole object is at fault, so the error has an empty field.
  if (totalSize > maxSecretSize) errs.push(tooLong(Path.root(''), maxSecretSize));
  return errs;
}

function validateConfigMapUpdate(cm: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(cm.metadata, old.metadata, Path.root('metadata'));
  if (old['immutable'] === true) {
    const msg = 'field is immutable when `immutable` is set';
    if (cm['immutable'] !== true) errs.push(forbidden(Path.root('immutable'), msg));
    if (!semanticEqual(cm['data'], old['data'])) errs.push(forbidden(Path.root('data'), msg));
    if (!semanticEqual(cm['binaryData'], old['binaryData'])) errs.push(forbidden(Path.root('binaryData'), msg));
  }
  errs.push(...validateConfigMap(cm));
  return errs;
}

registerValidator('', 'ConfigMap', { create: validateConfigMap, update: validateConfigMapUpdate });
