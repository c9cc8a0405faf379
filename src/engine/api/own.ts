/**
 * Objects used as maps, safe for every key. Kubernetes data is full of user-chosen keys and names
 * (labels, annotations, ConfigMap keys, custom resources' fields) and any of them may be spelled
 * like a member of Object.prototype: `constructor`, `toString`, `__proto__`. In a plain object,
 * `o[key]` then finds the inherited function, `key in o` is true for an absent key, and
 * `o['__proto__'] = v` changes the object's prototype instead of adding a key.
 *
 * So, wherever a key comes from data:
 * - data objects (JSON values) are read with `own` and written with `setOwn`;
 * - tables and maps the engine builds itself are `Dict`s (no prototype at all), made by `dict`
 *   or `table`, or `Map`s;
 * - membership is `Object.hasOwn`, never `in`.
 * test/unit/lint/own-keys.test.ts keeps it that way (see there for what it checks).
 */

declare const NO_PROTOTYPE: unique symbol;

/** A map object without a prototype: every key, `__proto__` included, is an ordinary own key. */
export type Dict<T> = { [key: string]: T } & { readonly [NO_PROTOTYPE]: true };

/** A new, empty Dict. */
export function dict<T>(): Dict<T> {
  return Object.create(null) as Dict<T>;
}

/** A constant lookup table as a frozen Dict (its keys are written in code, looked up by data). */
export function table<T>(entries: { readonly [key: string]: T }): Readonly<Dict<T>> {
  return Object.freeze(dictOf(entries));
}

/** A Dict with the own enumerable keys of `o` (for JSON parsed elsewhere, as a lookup table). */
export function dictOf<T>(o: { readonly [key: string]: T } | undefined): Dict<T> {
  const out = dict<T>();
  if (o) for (const k of Object.keys(o)) out[k] = o[k]!;
  return out;
}

/** `o[key]` if `o` has that key itself; never an inherited member. */
export function own<T>(o: { readonly [key: string]: T } | undefined | null, key: string): T | undefined {
  return o != null && Object.hasOwn(o, key) ? o[key] : undefined; // own-keys: checked
}

/** `o[key] = value` that adds an own key even for `__proto__` (which would set the prototype). */
export function setOwn<T>(o: { [key: string]: T }, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value; // own-keys: not __proto__, so an own key
}

/** Object.assign(target, source) that copies a `__proto__` key as a key (Object.assign would set the prototype). */
export function assignOwn<T>(target: { [key: string]: T }, source: { readonly [key: string]: T } | undefined): void {
  if (source) for (const k of Object.keys(source)) setOwn(target, k, source[k]!);
}

/** Whether `o` has `key` itself (a typed Object.hasOwn that takes undefined). */
export function hasOwn(o: object | undefined | null, key: string): boolean {
  return o != null && Object.hasOwn(o, key);
}

