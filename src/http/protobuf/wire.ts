/** Protocol buffers' wire format: varints, fixed-width numbers and length-delimited fields. */

export class WireError extends Error {}

export interface Field {
  number: number;
  wireType: number;
  /** varint / fixed values */
  value?: bigint;
  /** length-delimited bytes */
  bytes?: Uint8Array;
}

export class Reader {
  private pos = 0;
  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new WireError('unexpected EOF');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 63n) throw new WireError('proto: integer overflow');
    }
  }

  private take(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.buf.length) throw new WireError('unexpected EOF');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  field(): Field {
    const key = Number(this.varint());
    const number = key >>> 3;
    const wireType = key & 7;
    if (number === 0) throw new WireError('proto: illegal tag 0');
    switch (wireType) {
      case 0:
        return { number, wireType, value: this.varint() };
      case 1: {
        const b = this.take(8);
        return { number, wireType, value: new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, true) };
      }
      case 2:
        return { number, wireType, bytes: this.take(Number(this.varint())) };
      case 5: {
        const b = this.take(4);
        return { number, wireType, value: BigInt(new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true)) };
      }
      default:
        throw new WireError(`proto: illegal wireType ${wireType}`);
    }
  }
}

export function fields(buf: Uint8Array): Field[] {
  const r = new Reader(buf);
  const out: Field[] = [];
  while (!r.done) out.push(r.field());
  return out;
}
