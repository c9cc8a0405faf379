/**
 * An ordered map from string keys to values: a B+tree whose leaves are linked in key order, so a
 * range read is one descent plus a walk along the leaves, and an insert moves at most one node's
 * worth of slots (never the whole key set, as a sorted array would).
 */

export type KeyCompare = (a: string, b: string) => number;

/** Slots per node. 128 keeps a million keys three levels deep while a split stays cheap. */
const MAX_SLOTS = 128;
/** Below this a node merges into a sibling when the two fit in one node. */
const MIN_SLOTS = MAX_SLOTS >> 2;

class Leaf<V> {
  next: Leaf<V> | undefined;
  constructor(
    public keys: string[],
    public values: V[],
  ) {}
}

class Branch<V> {
  /** keys[i] separates children[i] (keys below it) from children[i + 1] (keys at or above it). */
  constructor(
    public keys: string[],
    public children: Array<Node<V>>,
  ) {}
}

type Node<V> = Leaf<V> | Branch<V>;

export class BPlusTree<V> {
  private root: Node<V> = new Leaf<V>([], []);
  private count = 0;

  constructor(private readonly compare: KeyCompare) {}

  get size(): number {
    return this.count;
  }

  get(key: string): V | undefined {
    const leaf = this.leafFor(key);
    const i = this.lowerBound(leaf.keys, key);
    return i < leaf.keys.length && this.compare(leaf.keys[i]!, key) === 0 ? leaf.values[i] : undefined;
  }

  /** Inserts or replaces. */
  set(key: string, value: V): void {
    const { path, slots, leaf, i } = this.descend(key);
    if (i < leaf.keys.length && this.compare(leaf.keys[i]!, key) === 0) {
      leaf.values[i] = value;
      return;
    }
    leaf.keys.splice(i, 0, key);
    leaf.values.splice(i, 0, value);
    this.count++;
    if (leaf.keys.length <= MAX_SLOTS) return;

    // Appending at a node's end (ascending keys: generated names, event timestamps) leaves the
    // node full and starts a new one; anywhere else the node splits in half.
    let split: { separator: string; right: Node<V> } = this.splitLeaf(leaf, i === leaf.keys.length - 1);
    for (let level = path.length - 1; level >= 0; level--) {
      const parent = path[level]!;
      const at = slots[level]!;
      parent.keys.splice(at, 0, split.separator);
      parent.children.splice(at + 1, 0, split.right);
      if (parent.children.length <= MAX_SLOTS) return;
      split = this.splitBranch(parent, at + 1 === parent.children.length - 1);
    }
    this.root = new Branch([split.separator], [this.root, split.right]);
  }

  delete(key: string): boolean {
    const { path, slots, leaf, i } = this.descend(key);
    if (i >= leaf.keys.length || this.compare(leaf.keys[i]!, key) !== 0) return false;
    leaf.keys.splice(i, 1);
    leaf.values.splice(i, 1);
    this.count--;

    let child: Node<V> = leaf;
    for (let level = path.length - 1; level >= 0; level--) {
      if (slotCount(child) >= MIN_SLOTS) break;
      if (!this.mergeWithSibling(path[level]!, slots[level]!)) break;
      child = path[level]!;
    }
    while (this.root instanceof Branch && this.root.children.length === 1) this.root = this.root.children[0]!;
    return true;
  }

  /** Visits entries with key >= from in ascending order until `visit` returns false. */
  scan(from: string, visit: (key: string, value: V) => boolean | void): void {
    let leaf: Leaf<V> | undefined = this.leafFor(from);
    let i = this.lowerBound(leaf.keys, from);
    while (leaf) {
      const { keys, values } = leaf;
      for (; i < keys.length; i++) {
        if (visit(keys[i]!, values[i]!) === false) return;
      }
      leaf = leaf.next;
      i = 0;
    }
  }

  /** The way down to the key's leaf (each branch passed and the child slot taken in it) and the key's place in that leaf, for a write that may split or merge nodes on the way back up. */
  private descend(key: string): { path: Branch<V>[]; slots: number[]; leaf: Leaf<V>; i: number } {
    const path: Branch<V>[] = [];
    const slots: number[] = [];
    let node = this.root;
    while (node instanceof Branch) {
      const i = this.upperBound(node.keys, key);
      path.push(node);
      slots.push(i);
      node = node.children[i]!;
    }
    return { path, slots, leaf: node, i: this.lowerBound(node.keys, key) };
  }

  private leafFor(key: string): Leaf<V> {
    let node = this.root;
    while (node instanceof Branch) node = node.children[this.upperBound(node.keys, key)]!;
    return node;
  }

  /** First index whose key is >= key. */
  private lowerBound(keys: string[], key: string): number {
    return this.bound(keys, key, false);
  }

  /** First index whose key is > key: the child of a branch that may hold key. */
  private upperBound(keys: string[], key: string): number {
    return this.bound(keys, key, true);
  }

  /** Binary search: the first index whose key is greater than `key` (`strict`) or not less than it. */
  private bound(keys: string[], key: string, strict: boolean): number {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compare(keys[mid]!, key);
      if (c < 0 || (strict && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private splitLeaf(leaf: Leaf<V>, atEnd: boolean): { separator: string; right: Leaf<V> } {
    const at = atEnd ? leaf.keys.length - 1 : leaf.keys.length >> 1;
    const right = new Leaf(leaf.keys.slice(at), leaf.values.slice(at));
    // Fresh arrays rather than splice: a spliced array keeps its old capacity.
    leaf.keys = leaf.keys.slice(0, at);
    leaf.values = leaf.values.slice(0, at);
    right.next = leaf.next;
    leaf.next = right;
    return { separator: right.keys[0]!, right };
  }

  private splitBranch(branch: Branch<V>, atEnd: boolean): { separator: string; right: Branch<V> } {
    const at = atEnd ? branch.children.length - 1 : branch.children.length >> 1;
    const right = new Branch(branch.keys.slice(at), branch.children.slice(at));
    const separator = branch.keys[at - 1]!;
    branch.keys = branch.keys.slice(0, at - 1);
    branch.children = branch.children.slice(0, at);
    return { separator, right };
  }

  /**
   * Merges parent.children[at] with a neighbour if both fit in one node. Returns whether the
   * parent lost a child (and so may be underfull itself).
   */
  private mergeWithSibling(parent: Branch<V>, at: number): boolean {
    const left = at > 0 ? at - 1 : at;
    const a = parent.children[left]!;
    const b = parent.children[left + 1];
    if (!b || slotCount(a) + slotCount(b) > MAX_SLOTS) return false;
    if (a instanceof Leaf && b instanceof Leaf) {
      a.keys.push(...b.keys);
      a.values.push(...b.values);
      a.next = b.next;
    } else if (a instanceof Branch && b instanceof Branch) {
      a.keys.push(parent.keys[left]!, ...b.keys);
      a.children.push(...b.children);
    }
    parent.keys.splice(left, 1);
    parent.children.splice(left + 1, 1);
    return true;
  }
}

function slotCount<V>(node: Node<V>): number {
  return node instanceof Leaf ? node.keys.length : node.children.length;
}
