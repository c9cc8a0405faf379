/**
 * The engine's only source of randomness: a seeded sfc32 generator. Same seed, same sequence,
 * on every platform. Components take a Random (or a fork of one) instead of Math.random.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number = 'kubesim') {
    const [a, b, c, d] = hash128(String(seed));
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** An independent stream derived from this generator's seed and a name. */
  fork(name: string): Random {
    return new Random(`${this.a}:${this.b}:${this.c}:${this.d}:${name}`);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!(n > 0)) throw new RangeError(`Random.int: n must be positive, got ${n}`);
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Random.pick: empty list');
    return items[this.int(items.length)]!;
  }

  /** Fisher-Yates, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }

  /**
   * apimachinery's rand.String alphabet: consonants and digits without look-alikes, so that
   * generated names never spell words. Used for generateName and pod name suffixes.
   */
  string(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += NAME_ALPHABET[this.int(NAME_ALPHABET.length)];
    return out;
  }

  /** A random (version 4) UUID, as the API server assigns to metadata.uid. */
  uuid(): string {
    const hex: string[] = [];
    for (let i = 0; i < 4; i++) hex.push(this.nextUint32().toString(16).padStart(8, '0'));
    const h = hex.join('');
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** cyrb128: spreads a string seed over four 32-bit words. */
function hash128(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
