import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { positiveInteger, selfSignedCertificate } from '../../../src/http/tls';

describe('self-signed serving certificates', () => {
  it('encodes integers minimally, as DER requires (a leading zero byte is "illegal padding")', () => {
    assert.deepEqual([...positiveInteger(Buffer.from([0x00, 0x12]))], [0x02, 0x01, 0x12]);
    assert.deepEqual([...positiveInteger(Buffer.from([0x00, 0x00, 0x92]))], [0x02, 0x02, 0x00, 0x92]);
    assert.deepEqual([...positiveInteger(Buffer.from([0x92]))], [0x02, 0x02, 0x00, 0x92]);
    assert.deepEqual([...positiveInteger(Buffer.from([0x00]))], [0x02, 0x01, 0x00]);
    assert.deepEqual([...positiveInteger(Buffer.from([0x7f, 0x00]))], [0x02, 0x02, 0x7f, 0x00]);
  });

  it('every certificate parses (the random serial once made 1 in 256 of them unreadable)', function () {
    this.timeout(60_000);
    for (let i = 0; i < 600; i++) {
      const cert = selfSignedCertificate('kubesim', ['127.0.0.1'], ['localhost'], Date.UTC(2026, 0, 1));
      const x = new X509Certificate(cert.cert);
      assert.equal(x.serialNumber.length, 32, x.serialNumber);
      assert.match(x.subject, /CN=kubesim/);
    }
  });
});
