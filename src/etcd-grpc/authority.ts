/**
 * etcdctl (clientv3 3.4) dials an endpoint it is given for a maintenance call (endpoint status,
 * defrag) as `passthrough:///http://127.0.0.1:2379`, and grpc-go then sends the whole URL as the
 * HTTP/2 `:authority`. Go's HTTP/2 server takes it; Node's (nghttp2) resets the stream with
 * PROTOCOL_ERROR, as a URL is not a valid authority. So what a client sends passes through this
 * fix before grpc-js sees it: the client's header blocks are
 * decoded (HPACK, with the client's dynamic table: hpack.js), the authority's `scheme://` is
 * dropped, and each block is encoded again as literals that never enter the server's table.
 * Every other frame, and everything the server sends, passes unchanged: each member's listener
 * relays its connections to grpc-js's own loopback listener through this fix (server.ts).
 */
import { Transform } from 'node:stream';

interface HpackHeader {
  name: string;
  value: string;
}
interface HpackDecompressor {
  write(chunk: Buffer): boolean;
  execute(): void;
  read(): HpackHeader | null;
  on(event: 'error', listener: (err: Error) => void): void;
}
interface HpackModule {
  decompressor: { create(options: { table: { size: number } }): HpackDecompressor };
}

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const HEADERS = 0x1;
const CONTINUATION = 0x9;
const END_STREAM = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY = 0x20;
/** SETTINGS_MAX_FRAME_SIZE's floor, which every peer accepts. */
const MAX_FRAME = 16_384;
/** The server's SETTINGS_HEADER_TABLE_SIZE (Node's default): the client's encoder table. */
const TABLE_SIZE = 4096;
/** A header block larger than this is refused (grpc-js's own header list limit is far below). */
const MAX_BLOCK = 1024 * 1024;

function hpack(): HpackModule {
  return require('hpack.js') as HpackModule;
}

/** HPACK integer with an N-bit prefix (RFC 7541 §5.1). */
function integer(out: number[], prefixBits: number, first: number, n: number): void {
  const max = (1 << prefixBits) - 1;
  if (n < max) {
    out.push(first | n);
    return;
  }
  out.push(first | max);
  n -= max;
  while (n >= 128) {
    out.push((n % 128) + 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
}

function literal(out: number[], s: string): void {
  const bytes = Buffer.from(s, 'latin1');
  integer(out, 7, 0, bytes.length);
  for (const b of bytes) out.push(b);
}

/** A header block of literals without indexing, new names (RFC 7541 §6.2.2). */
export function encodeHeaders(headers: readonly HpackHeader[]): Buffer {
  const out: number[] = [];
  for (const h of headers) {
    out.push(0x00);
    literal(out, h.name);
    literal(out, h.value);
  }
  return Buffer.from(out);
}

/** `http://127.0.0.1:2379` (or with a path) as an authority: `127.0.0.1:2379`. */
export function authorityOf(value: string): string {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/]*)/.exec(value);
  return m ? m[1]! : value;
}

function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

/**
 * The client's half of a connection, on its way to grpc-js's own listener: every HEADERS and
 * CONTINUATION block with its `:authority` fixed, every other byte as it came. The server's half
 * needs nothing and is piped back unchanged. (Handing grpc-js a JS stream as its connection
 * instead makes Node's http2 run over a JSStreamSocket, which asserts and kills the process when
 * a client resets a connection with a write on its way; over two plain TCP sockets it does not.)
 */
export class AuthorityFixingStream extends Transform {
  private buffered: Buffer = Buffer.alloc(0);
  private prefaceSeen = false;
  private readonly decoder: HpackDecompressor;
  /** A header block in progress (HEADERS without END_HEADERS, then CONTINUATIONs). */
  private pending: { stream: number; flags: number; priority: Buffer | undefined; fragments: Buffer[]; size: number } | undefined;
  private failure: Error | undefined;

  constructor() {
    super();
    this.decoder = hpack().decompressor.create({ table: { size: TABLE_SIZE } });
    this.decoder.on('error', (err) => (this.failure = err));
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.fromClient(chunk);
    done(this.failure);
  }

  private emitToServer(b: Buffer): void {
    this.push(b);
  }

  private fromClient(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    try {
      if (!this.prefaceSeen) {
        if (this.buffered.length < PREFACE.length) return;
        // Not HTTP/2: hand it over as it is, nghttp2 answers for itself.
        this.prefaceSeen = true;
        this.emitToServer(this.buffered.subarray(0, PREFACE.length));
        this.buffered = this.buffered.subarray(PREFACE.length);
      }
      while (this.buffered.length >= 9) {
        const length = this.buffered.readUIntBE(0, 3);
        if (this.buffered.length < 9 + length) break;
        const type = this.buffered[3]!;
        const flags = this.buffered[4]!;
        const stream = this.buffered.readUInt32BE(5) & 0x7fffffff;
        const whole = this.buffered.subarray(0, 9 + length);
        const payload = whole.subarray(9);
        this.buffered = this.buffered.subarray(9 + length);
        if (type === HEADERS) this.headers(flags, stream, payload);
        else if (type === CONTINUATION && this.pending) this.continuation(flags, stream, payload);
        else this.emitToServer(whole);
      }
    } catch (err) {
      this.failure = err instanceof Error ? err : new Error(String(err));
    }
  }

  private headers(flags: number, stream: number, payload: Buffer): void {
    let offset = 0;
    let padding = 0;
    if (flags & PADDED) {
      padding = payload[0]!;
      offset = 1;
    }
    let priority: Buffer | undefined;
    if (flags & PRIORITY) {
      priority = Buffer.from(payload.subarray(offset, offset + 5));
      offset += 5;
    }
    if (offset + padding > payload.length) throw new Error('HTTP/2: bad HEADERS padding');
    const fragment = Buffer.from(payload.subarray(offset, payload.length - padding));
    this.pending = { stream, flags, priority, fragments: [fragment], size: fragment.length };
    if (flags & END_HEADERS) this.finishBlock();
  }

  private continuation(flags: number, stream: number, payload: Buffer): void {
    const p = this.pending!;
    if (stream !== p.stream) throw new Error('HTTP/2: CONTINUATION on another stream');
    p.fragments.push(Buffer.from(payload));
    p.size += payload.length;
    if (p.size > MAX_BLOCK) throw new Error('HTTP/2: header block too large');
    if (flags & END_HEADERS) this.finishBlock();
  }

  private finishBlock(): void {
    const p = this.pending!;
    this.pending = undefined;
    this.decoder.write(Buffer.concat(p.fragments));
    this.decoder.execute();
    const headers: HpackHeader[] = [];
    for (let h = this.decoder.read(); h; h = this.decoder.read()) headers.push(h.name === ':authority' ? { name: h.name, value: authorityOf(h.value) } : h);
    const block = encodeHeaders(headers);
    const head = p.priority ? Buffer.concat([p.priority, block]) : block;
    const keep = (p.flags & END_STREAM) | (p.priority ? PRIORITY : 0);
    if (head.length <= MAX_FRAME) {
      this.emitToServer(frame(HEADERS, keep | END_HEADERS, p.stream, head));
      return;
    }
    this.emitToServer(frame(HEADERS, keep, p.stream, head.subarray(0, MAX_FRAME)));
    for (let at = MAX_FRAME; at < head.length; at += MAX_FRAME) {
      const last = at + MAX_FRAME >= head.length;
      this.emitToServer(frame(CONTINUATION, last ? END_HEADERS : 0, p.stream, head.subarray(at, at + MAX_FRAME)));
    }
  }
}
