/** Secret: key names, 1 MiB in total, the keys each built-in type requires, immutability. */
import { forbidden, invalid, Path, required, tooLong, type ErrorList } from '../../../api/field';
import { isConfigMapKey, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { decodedLength, maxSecretSize } from './configmap';
import { entries, obj, semanticEqual, str, type Obj } from './json';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from './meta';
import { own, setOwn } from '../../../api/own';

const serviceAccountNameKey = 'kubernetes.io/service-account.name';

/** encoding/json's complaint about a docker config that is not a JSON object, if any. */
function dockerConfigError(b64: string): string | undefined {
  const text = Buffer.from(b64, 'base64').toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : '';
    if (text.trim() === '' || /Unexpected end/i.test(msg)) return 'unexpected end of JSON input';
    const m = /Unexpected token '?(.)'?/.exec(msg);
    return m ? `invalid character '${m[1]}' looking for beginning of value` : msg;
  }
  if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
    const kind = Array.isArray(parsed) ? 'array' : typeof parsed === 'boolean' ? 'bool' : typeof parsed;
    return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
  }
  return undefined;
}

/** The data upstream validates: v1 stringData is merged into data (as base64) by conversion. */
function secretData(secret: KubeObject): Obj {
  const data: Obj = { ...(obj(secret['data']) ?? {}) };
  for (const [key, value] of entries(secret['stringData'])) setOwn(data, key, Buffer.from(str(value), 'utf8').toString('base64'));
  return data;
}

function validateSecret(secret: KubeObject): ErrorList {
  const errs = validateObjectMeta(secret.metadata, true, nameIsDNSSubdomain, Path.root('metadata'));
  const dataPath = Path.root('data');
  const data = secretData(secret);
  let totalSize = 0;
  for (const [key, value] of entries(data)) {
    errs.push(...isConfigMapKey(key).map((m) => invalid(dataPath.key(key), key, m)));
    totalSize += decodedLength(str(value));
  }
  if (totalSize > maxSecretSize) errs.push(tooLong(dataPath, maxSecretSize));
  const has = (key: string): boolean => own(data, key) !== undefined && own(data, key) !== null;
  switch (str(secret['type'])) {
    case 'kubernetes.io/service-account-token':
      if (str(secret.metadata.annotations?.[serviceAccountNameKey]).length === 0) {
        errs.push(required(Path.root('metadata', 'annotations').key(serviceAccountNameKey), ''));
      }
      break;
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const key = secret['type'] === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      if (!has(key)) {
        errs.push(required(dataPath.key(key), ''));
        break;
      }
      const problem = dockerConfigError(str(data[key]));
      if (problem) errs.push(invalid(dataPath.key(key), '<secret contents redacted>', problem));
      break;
    }
    case 'kubernetes.io/basic-auth':
      // Either may be empty, but one of the keys must be present.
      if (!has('username') && !has('password')) {
        errs.push(required(dataPath.key('username'), ''));
        errs.push(required(dataPath.key('password'), ''));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (decodedLength(str(data['ssh-privatekey'])) === 0) errs.push(required(dataPath.key('ssh-privatekey'), ''));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(required(dataPath.key('tls.crt'), ''));
      if (!has('tls.key')) errs.push(required(dataPath.key('tls.key'), ''));
      break;
  }
  return errs;
}

function validateSecretUpdate(secret: KubeObject, old: KubeObject): ErrorList {
  const errs = validateObjectMetaUpdate(secret.metadata, old.metadata, Path.root('metadata'));
  errs.push(...validateImmutableField(str(secret['type']), str(old['type']), Path.root('type')));
  if (old['immutable'] === true) {
    const msg = 'field is immutable when `immutable` is set';
    if (secret['immutable'] !== true) errs.push(forbidden(Path.root('immutable'), msg));
    if (!semanticEqual(secretData(secret), secretData(old))) errs.push(forbidden(Path.root('data'), msg));
  }
  errs.push(...validateSecret(secret));
  return errs;
}

registerValidator('', 'Secret', { create: validateSecret, update: validateSecretUpdate });
