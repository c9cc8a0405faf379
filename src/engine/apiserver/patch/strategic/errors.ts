/**
 * Strategic merge patch failures with k8s.io/apimachinery's texts (pkg/util/mergepatch and
 * pkg/util/strategicpatch). The handler maps a few sentinel errors to 400 or 422; anything
 * else reaches the client as a 500 carrying the bare text, exactly as kube-apiserver does.
 */
import type { JsonValue } from '../../../api/types';
import { goSprintV, goTypeName } from '../govalue';

/** The sentinels kube-apiserver's interpretStrategicMergePatchError recognises. */
export type Sentinel = 'badRequest' | 'invalid' | 'other';

export class StrategicPatchError extends Error {
  constructor(
    message: string,
    readonly sentinel: Sentinel = 'other',
  ) {
    super(message);
    this.name = 'StrategicPatchError';
  }
}

const badRequest = (m: string) => (): StrategicPatchError => new StrategicPatchError(m, 'badRequest');

export const errBadPatchFormatForPrimitiveList = badRequest('invalid patch format of primitive list');
export const errBadPatchFormatForRetainKeys = badRequest('invalid patch format of retainKeys');
export const errBadPatchFormatForSetElementOrderList = badRequest('invalid patch format of setElementOrder list');
export const errNoListOfLists = (): StrategicPatchError => new StrategicPatchError('lists of lists are not supported', 'invalid');

export function errNoMergeKey(m: JsonValue, key: string): StrategicPatchError {
  return new StrategicPatchError(`map: ${goSprintV(m)} does not contain declared merge key: ${key}`);
}

/** ErrBadArgType: the expected Go type is what the code asserted, e.g. map[string]interface {}. */
export function errBadArgType(expected: 'map' | 'slice', actual: JsonValue | undefined): StrategicPatchError {
  const want = expected === 'map' ? 'map[string]interface {}' : '[]interface {}';
  return new StrategicPatchError(`expected a ${want}, but received a ${goTypeName(actual)}`);
}

export function errBadPatchType(directive: JsonValue, m: JsonValue): StrategicPatchError {
  return new StrategicPatchError(`unknown patch type: ${goSprintS(directive)} in map: ${goSprintV(m)}`);
}

/** fmt's %s of a decoded JSON value: strings print bare, other values as %!s(type=value). */
function goSprintS(v: JsonValue): string {
  if (v === null) return '%!s(<nil>)';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return `%!s(${goTypeName(v)}=${goSprintV(v)})`;
  if (Array.isArray(v)) return '[' + v.map(goSprintS).join(' ') + ']';
  const keys = Object.keys(v).sort();
  return 'map[' + keys.map((k) => `${k}:${goSprintS(v[k] ?? null)}`).join(' ') + ']';
}
