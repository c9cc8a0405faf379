/**
 * A set of field paths as a trie (structured-merge-diff's fieldpath.Set): members are paths
 * that end here, children hold longer paths. Sets are immutable values; every operation
 * returns a new set and shares unchanged subtrees, or the operand itself when nothing changed.
 */
import type { JsonObject } from '../../../api/types';
import type { Path, PathElement } from './element';
import { compareElements } from './element';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

/** Binary search: the index of pe, or -(insertion point) - 1. */
function search<T>(items: readonly T[], pe: PathElement, get: (t: T) => PathElement): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareElements(get(items[mid]!), pe);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -lo - 1;
}

const self = (pe: PathElement): PathElement => pe;
const childPe = (c: Child): PathElement => c.pe;

export class FieldSet {
  static readonly EMPTY = new FieldSet([], []);

  /**
   * The set's FieldsV1 encoding once apply/managed.ts has written it (frozen; a cache beside the
   * set's value, which never changes).
   */
  encoding: JsonObject | undefined = undefined;

  private constructor(
    readonly members: readonly PathElement[],
    readonly children: readonly Child[],
  ) {}

  /** The set of the given paths, built in one pass (the same set as inserting them one by one). */
  static of(...paths: Path[]): FieldSet {
    return FieldSet.from(paths);
  }

  static from(paths: readonly Path[]): FieldSet {
    const root = new Builder();
    for (const p of paths) if (p.length > 0) root.insert(p, 0);
    return root.build();
  }

  /** A set from already sorted, de-duplicated members and children. */
  static fromSorted(members: PathElement[], children: Child[]): FieldSet {
    return members.length === 0 && children.length === 0 ? FieldSet.EMPTY : new FieldSet(members, children);
  }

  insert(p: Path): FieldSet {
    if (p.length === 0) return this;
    const [pe, ...rest] = p as [PathElement, ...PathElement[]];
    if (rest.length === 0) {
      const at = search(this.members, pe, self);
      if (at >= 0) return this;
      const members = [...this.members];
      members.splice(-at - 1, 0, pe);
      return new FieldSet(members, this.children);
    }
    const at = search(this.children, pe, childPe);
    const children = [...this.children];
    if (at >= 0) children[at] = { pe, set: children[at]!.set.insert(rest) };
    else children.splice(-at - 1, 0, { pe, set: FieldSet.EMPTY.insert(rest) });
    return new FieldSet(this.members, children);
  }

  has(p: Path): boolean {
    let s: FieldSet | undefined = this;
    for (let i = 0; i < p.length - 1; i++) {
      s = s.child(p[i]!);
      if (!s) return false;
    }
    return p.length > 0 && search(s.members, p[p.length - 1]!, self) >= 0;
  }

  hasMember(pe: PathElement): boolean {
    return search(this.members, pe, self) >= 0;
  }

  /** The subset under one element (structured-merge-diff's Children.Get). */
  child(pe: PathElement): FieldSet | undefined {
    const at = search(this.children, pe, childPe);
    return at >= 0 ? this.children[at]!.set : undefined;
  }

  /** WithPrefix: the paths under pe, without it. */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? FieldSet.EMPTY;
  }

  empty(): boolean {
    return this.members.length === 0 && this.children.every((c) => c.set.empty());
  }

  union(o: FieldSet): FieldSet {
    if (o === this || o.empty()) return this;
    if (this.empty()) return o;
    return this.sameOr(
      mergeSorted(this.members, o.members, self, (a) => a),
      mergeSorted(this.children, o.children, childPe, (a, b) => {
        const set = a.set.union(b.set);
        return set === a.set ? a : { pe: a.pe, set };
      }),
    );
  }

  intersection(o: FieldSet): FieldSet {
    const members = this.members.filter((m) => o.hasMember(m));
    const children: Child[] = [];
    for (const c of this.children) {
      const oc = o.child(c.pe);
      if (!oc) continue;
      const set = c.set.intersection(oc);
      if (!set.empty()) children.push(set === c.set ? c : { pe: c.pe, set });
    }
    return this.sameOr(members, children);
  }

  /** Paths of this set not in o (members removed exactly; children removed path by path). */
  difference(o: FieldSet): FieldSet {
    const members = this.members.filter((m) => !o.hasMember(m));
    const children: Child[] = [];
    for (const c of this.children) {
      const oc = o.child(c.pe);
      if (!oc) {
        children.push(c);
        continue;
      }
      const set = c.set.difference(oc);
      if (!set.empty()) children.push(set === c.set ? c : { pe: c.pe, set });
    }
    return this.sameOr(members, children);
  }

  /** Like difference, but a member of o also removes everything below it. */
  recursiveDifference(o: FieldSet): FieldSet {
    const members = this.members.filter((m) => !o.hasMember(m));
    const children: Child[] = [];
    for (const c of this.children) {
      if (o.hasMember(c.pe)) continue;
      const oc = o.child(c.pe);
      if (!oc) {
        children.push(c);
        continue;
      }
      const set = c.set.recursiveDifference(oc);
      if (!set.empty()) children.push(set === c.set ? c : { pe: c.pe, set });
    }
    return this.sameOr(members, children);
  }

  /**
   * This set itself when an operation's result holds exactly its members and children (the same
   * elements and child sets: nothing added or taken away), else the new set. Sets are values,
   * so the result is the same either way; keeping the operand lets a manager whose fields did
   * not change keep the set it had, and the encoding cached with it (apply/managed.ts).
   */
  private sameOr(members: PathElement[], children: Child[]): FieldSet {
    if (members.length === this.members.length && children.length === this.children.length) {
      let same = true;
      for (let i = 0; same && i < members.length; i++) same = members[i] === this.members[i];
      for (let i = 0; same && i < children.length; i++) same = children[i] === this.children[i];
      if (same) return this;
    }
    return FieldSet.fromSorted(members, children);
  }

  /** Every path, members before children at each level, in element order. */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = this.members.map((m) => [...prefix, m]);
    for (const c of this.children) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }

  /** Rebuilds the set bottom-up, letting a visitor add members for the children it sees. */
  mapChildren(fn: (pe: PathElement, set: FieldSet) => { set: FieldSet; addMember: boolean }): FieldSet {
    const members = [...this.members];
    const children: Child[] = [];
    for (const c of this.children) {
      const r = fn(c.pe, c.set);
      children.push({ pe: c.pe, set: r.set });
      if (r.addMember && search(members, c.pe, self) < 0) members.splice(-search(members, c.pe, self) - 1, 0, c.pe);
    }
    return FieldSet.fromSorted(members, children);
  }
}

/**
 * A mutable trie level for FieldSet.from: inserting into sorted arrays in place, instead of
 * copying every level on the path for each insert as the immutable insert does.
 */
class Builder {
  private readonly members: PathElement[] = [];
  private readonly children: Array<{ pe: PathElement; b: Builder }> = [];

  insert(p: Path, i: number): void {
    let level: Builder = this;
    for (; i < p.length - 1; i++) {
      const pe = p[i]!;
      const at = search(level.children, pe, builderPe);
      if (at >= 0) {
        // As insert does: the child keeps the element it was last reached by.
        const c = level.children[at]!;
        c.pe = pe;
        level = c.b;
      } else {
        const b = new Builder();
        level.children.splice(-at - 1, 0, { pe, b });
        level = b;
      }
    }
    const pe = p[p.length - 1]!;
    const at = search(level.members, pe, self);
    if (at < 0) level.members.splice(-at - 1, 0, pe);
  }

  build(): FieldSet {
    const children: Child[] = this.children.map((c) => ({ pe: c.pe, set: c.b.build() }));
    return FieldSet.fromSorted(this.members, children);
  }
}

const builderPe = (c: { pe: PathElement }): PathElement => c.pe;

function mergeSorted<T>(a: readonly T[], b: readonly T[], pe: (t: T) => PathElement, both: (a: T, b: T) => T): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = compareElements(pe(a[i]!), pe(b[j]!));
    if (c < 0) out.push(a[i++]!);
    else if (c > 0) out.push(b[j++]!);
    else out.push(both(a[i++]!, b[j++]!));
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
