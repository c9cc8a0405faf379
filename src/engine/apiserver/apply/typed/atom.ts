/**
 * Shared pieces of the walkers over typed values (structured-merge-diff's typed package): which
 * part of a schema atom a value takes, how a list item becomes a path element, and the errors
 * with their path prefixes.
 */
import type { JsonValue } from '../../../api/types';
import { isObject } from '../../../api/types';
import { goQuote } from '../../../api/gofmt';
import type { PathElement } from '../fieldpath/element';
import { compareStrings, valueElement } from '../fieldpath/element';
import type { Atom, ListAtom, MapAtom, Scalar, TypeRef } from '../schema';
import { resolve } from '../schema';
import { own } from '../../../api/own';
import { fail, ok, type Result } from '../../../api/result';

/** The handler a value gets: the part of its atom it takes. */
export type Deduced = { kind: 'map'; map: MapAtom } | { kind: 'scalar'; scalar: Scalar } | { kind: 'list'; list: ListAtom } | { kind: 'none' };

type Part = 'map' | 'scalar' | 'list' | 'all';

export interface Typed {
  readonly atom: Atom;
  readonly part: Part;
  /** handleAtom's choice for this atom and part, made once. */
  readonly handler: Deduced;
}

/** The four Typed values of each atom, made once (the walkers ask for one per value they visit). */
const typedParts = new WeakMap<Atom, Readonly<Record<Part, Typed>>>();

function typedOf(atom: Atom, part: Part): Typed {
  let parts = typedParts.get(atom);
  if (!parts) {
    // Parts that take a value the same way share one handler: walkers compare them by identity.
    const handlers: Handlers = {
      map: atom.map && Object.freeze({ kind: 'map', map: atom.map }),
      scalar: atom.scalar && Object.freeze({ kind: 'scalar', scalar: atom.scalar }),
      list: atom.list && Object.freeze({ kind: 'list', list: atom.list }),
    };
    const make = (p: Part): Typed => Object.freeze({ atom, part: p, handler: handleAtom(handlers, p) });
    parts = Object.freeze({ map: make('map'), scalar: make('scalar'), list: make('list'), all: make('all') });
    typedParts.set(atom, parts);
  }
  return parts[part];
}

/** deduceAtom: a scalar, list or map value selects that part of the atom when there is one. */
export function deduce(ref: TypeRef, v: JsonValue | undefined): Typed {
  const atom = resolve(ref);
  if (v === undefined || v === null) return typedOf(atom, 'all');
  if (Array.isArray(v)) return typedOf(atom, atom.list ? 'list' : 'all');
  if (isObject(v)) return typedOf(atom, atom.map ? 'map' : 'all');
  return typedOf(atom, atom.scalar ? 'scalar' : 'all');
}

type Handlers = { readonly [K in Exclude<Part, 'all'>]: Deduced | undefined };

/** handleAtom: maps first, then scalars, then lists. */
function handleAtom(handlers: Handlers, part: Part): Deduced {
  if ((part === 'map' || part === 'all') && handlers.map) return handlers.map;
  if ((part === 'scalar' || part === 'all') && handlers.scalar) return handlers.scalar;
  if ((part === 'list' || part === 'all') && handlers.list) return handlers.list;
  return NONE;
}

const NONE: Deduced = Object.freeze({ kind: 'none' });

export class ValidationError {
  constructor(
    readonly path: string,
    readonly message: string,
  ) {}

  withPrefix(prefix: string): ValidationError {
    return new ValidationError(prefix + this.path, this.message);
  }

  toString(): string {
    return this.path.length === 0 ? this.message : `${this.path}: ${this.message}`;
  }
}

/** ValidationErrors.Error(). */
export function errorsText(errs: readonly ValidationError[]): string {
  if (errs.length === 1) return errs[0]!.toString();
  return ['errors:', ...errs.map((e) => '  ' + e.toString())].join('\n');
}

export type ItemKey = Result<PathElement>;

/** listItemToPathElement for an associative list. */
export function listItemKey(list: ListAtom, child: JsonValue): ItemKey {
  if (list.relationship !== 'associative') return fail('invalid indexing of non-associative list');
  if (list.keys.length > 0) return keyedItem(list, child);
  if (isObject(child)) return fail("associative list without keys has an element that's a map type");
  if (Array.isArray(child)) return fail('not supported: associative list with lists as elements');
  if (child === null) return fail("associative list without keys has an element that's an explicit null");
  return ok(valueElement(child));
}

function keyedItem(list: ListAtom, child: JsonValue): ItemKey {
  if (child === null) return fail('associative list with keys may not have a null element');
  if (!isObject(child)) return fail('associative list with keys may not have non-map elements');
  const fields: Array<[string, JsonValue]> = [];
  for (const name of list.keys) {
    const v = own(child, name);
    if (v !== undefined) {
      fields.push([name, v]);
      continue;
    }
    const elem = resolve(list.element).map;
    if (!elem) return fail(`couldn't find default value for ${name}: associative list may not have non-map types`);
    const def = own(elem.fields, name)?.default;
    if (def !== undefined && def !== null) fields.push([name, def]);
  }
  if (fields.length === 0) {
    const keys = '[' + list.keys.map((k) => goQuote(k)).join(' ') + ']';
    return fail(`associative list with keys has an element that omits all key fields ${keys} (and doesn't have default values for any key fields)`);
  }
  // The fields are this item's own: sorted in place, without keyElement's copy.
  return ok({ kind: 'key', fields: sortByName(fields) });
}

/** keyElement's order, by insertion (key lists are short). */
function sortByName(fields: Array<[string, JsonValue]>): Array<[string, JsonValue]> {
  for (let i = 1; i < fields.length; i++) {
    const f = fields[i]!;
    let j = i - 1;
    while (j >= 0 && compareStrings(fields[j]![0], f[0]) > 0) {
      fields[j + 1] = fields[j]!;
      j--;
    }
    fields[j + 1] = f;
  }
  return fields;
}
