/**
 * The one result type for failures outside the API. An operation whose caller decides what a
 * failure means (a parser of a Go or Kubernetes text form, a lookup, a conversion) returns a
 * Result: its value, or why not, worded as upstream words it. The caller tests `ok` and reads
 * `value` or `error`. What the API answers is a StatusError, thrown; what etcd answers a
 * StoreError, thrown; a bug is a thrown Error (docs/architecture.md, "Failures").
 */
export type Result<T, E = string> = Ok<T> | Fail<E>;

export interface Ok<T> {
  readonly ok: true;
  readonly value: T;
}

export interface Fail<E = string> {
  readonly ok: false;
  readonly error: E;
}

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

export function fail<E = string>(error: E): Fail<E> {
  return { ok: false, error };
}
