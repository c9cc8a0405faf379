/**
 * The :authority fix in front of grpc-js (src/etcd-grpc/authority.ts): a URL becomes its host and
 * port, and re-encoded header blocks decode to the same headers with any HPACK decoder.
 */
import { strict as assert } from 'node:assert';
import { authorityOf, encodeHeaders } from '../../../src/etcd-grpc/authority';

interface Decompressor {
  write(b: Buffer): void;
  execute(): void;
  read(): { name: string; value: string } | null;
}
const hpack = require('hpack.js') as { decompressor: { create(o: { table: { size: number } }): Decompressor } };

describe('etcd gRPC: the :authority etcdctl sends', () => {
  it('drops the scheme grpc-go leaves in a passthrough target', () => {
    assert.equal(authorityOf('http://127.0.0.1:2379'), '127.0.0.1:2379');
    assert.equal(authorityOf('https://127.0.0.1:2379/'), '127.0.0.1:2379');
    assert.equal(authorityOf('127.0.0.1:2379'), '127.0.0.1:2379');
    assert.equal(authorityOf('localhost:2379'), 'localhost:2379');
  });

  it('encodes header blocks as literals any HPACK decoder reads back, long values and binary metadata included', () => {
    const headers = [
      { name: ':method', value: 'POST' },
      { name: ':authority', value: '127.0.0.1:2379' },
      { name: ':path', value: '/etcdserverpb.Maintenance/Status' },
      { name: 'token', value: 'x'.repeat(300) },
      { name: 'grpc-trace-bin', value: String.fromCharCode(0, 1, 200, 255) },
    ];
    const d = hpack.decompressor.create({ table: { size: 4096 } });
    for (let round = 0; round < 3; round++) {
      d.write(encodeHeaders(headers));
      d.execute();
      const out = [];
      for (let h = d.read(); h; h = d.read()) out.push({ name: h.name, value: h.value });
      assert.deepEqual(out, headers);
    }
  });
});
