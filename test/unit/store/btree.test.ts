import { strict as assert } from 'node:assert';
import { Random } from '../../../src/engine/random';
import { compareBytes, compareUnits, utf8Length } from '../../../src/engine/store/keys';
import { BPlusTree } from '../../../src/engine/store/memory/btree';
import { KeyOrder } from '../../../src/engine/store/memory/key-order';

describe('store B+tree', () => {
  it('agrees with a sorted reference through random inserts, replacements, deletes and scans', () => {
    const random = new Random('btree');
    const tree = new BPlusTree<number>(compareUnits);
    const reference = new Map<string, number>();
    const key = (): string => `k${random.int(20_000).toString().padStart(5, '0')}`;
    for (let step = 0; step < 60_000; step++) {
      const k = key();
      // Deletes dominate the second half, so that nodes underflow and merge.
      if (random.next() < (step < 30_000 ? 0.25 : 0.7)) {
        assert.equal(tree.delete(k), reference.delete(k));
      } else {
        tree.set(k, step);
        reference.set(k, step);
      }
      if (step % 5000 === 0 || step === 59_999) {
        const sorted = [...reference.keys()].sort();
        const seen: string[] = [];
        tree.scan('', (k2, v) => void (seen.push(k2), assert.equal(v, reference.get(k2))));
        assert.deepEqual(seen, sorted);
        assert.equal(tree.size, reference.size);
        const from = key();
        const tail: string[] = [];
        tree.scan(from, (k2) => (tail.push(k2), tail.length < 10));
        assert.deepEqual(tail, sorted.filter((k2) => k2 >= from).slice(0, 10));
      }
    }
    for (const [k, v] of reference) assert.equal(tree.get(k), v);
    for (const k of [...reference.keys()]) tree.delete(k);
    assert.equal(tree.size, 0);
    let any = false;
    tree.scan('', () => void (any = true));
    assert.equal(any, false);
  });

  it('holds a million keys, each found, and scans a prefix among them', function () {
    // How fast the inserts are is a bench figure (npm run bench -- store: btree-insert), not a check here.
    this.timeout(60_000);
    const tree = new BPlusTree<number>(compareUnits);
    for (let i = 0; i < 1_000_000; i++) tree.set(`/registry/pods/ns-${i % 97}/pod-${i}`, i);
    assert.equal(tree.size, 1_000_000);
    for (let i = 0; i < 1_000_000; i += 9973) assert.equal(tree.get(`/registry/pods/ns-${i % 97}/pod-${i}`), i);
    let n = 0;
    tree.scan('/registry/pods/ns-5/', (k) => k.startsWith('/registry/pods/ns-5/') && ++n > 0);
    assert.equal(n, Math.ceil((1_000_000 - 5) / 97));
  });
});

describe('store key order', () => {
  it('orders keys by their UTF-8 bytes, as etcd does', () => {
    const keys = ['b', 'a', '\uffff', '😀', 'é', 'z', '\ue000'];
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    assert.deepEqual([...keys].sort(compareBytes), byBytes);
    // Native comparison gets the astral key wrong, which is why the index switches.
    assert.notDeepEqual([...keys].sort(compareUnits), byBytes);
    const order = new KeyOrder();
    const tree = new BPlusTree<number>(order.compare);
    for (const [i, k] of keys.entries()) {
      order.admit(k);
      tree.set(k, i);
    }
    const seen: string[] = [];
    tree.scan('', (k) => void seen.push(k));
    assert.deepEqual(seen, byBytes);
  });

  it('counts UTF-8 bytes', () => {
    for (const s of ['', 'abc', 'é', '€', '😀', 'a\ud800b', 'x😀é']) assert.equal(utf8Length(s), Buffer.byteLength(s, 'utf8'), JSON.stringify(s));
  });
});
