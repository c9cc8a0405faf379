/**
 * A self-signed certificate for the endpoint, made in-process. kubectl sends bearer tokens only
 * over TLS, so the API is served over https; the kubeconfig carries this certificate as the
 * cluster's certificate authority. ECDSA P-256, valid for 127.0.0.1 and localhost, DER built by
 * hand (Node can sign but not issue certificates).
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

const len = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
};
const seq = (...c: Buffer[]): Buffer => tlv(0x30, ...c);
const set = (...c: Buffer[]): Buffer => tlv(0x31, ...c);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** A DER INTEGER of unsigned bytes: minimal (no leading zero bytes, which X.509 parsers refuse as
 * "illegal padding"), with one zero byte added where the high bit would make it negative. */
export function positiveInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const body = bytes.subarray(start);
  return tlv(0x02, body[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), body]) : body);
}

function utcTime(ms: number): Buffer {
  const s = new Date(ms).toISOString();
  return tlv(0x17, Buffer.from(`${s.slice(2, 4)}${s.slice(5, 7)}${s.slice(8, 10)}${s.slice(11, 13)}${s.slice(14, 16)}${s.slice(17, 19)}Z`));
}

const ECDSA_SHA256 = '1.2.840.10045.4.3.2';

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), tlv(0x04, value));
}

function ipv4(ip: string): Buffer {
  return Buffer.from(ip.split('.').map(Number));
}

export interface SelfSignedCertificate {
  /** PEM */
  key: string;
  /** PEM */
  cert: string;
}

export function selfSignedCertificate(commonName: string, ips: readonly string[], dnsNames: readonly string[], now: number = Date.now()): SelfSignedCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const name = seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName)))));
  const algorithm = seq(oid(ECDSA_SHA256));
  // A positive, non-zero 16-byte serial (RFC 5280 4.1.2.2); its first byte never zero, so its
  // encoding always has the same length.
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const altNames = seq(...ips.map((ip) => tlv(0x87, ipv4(ip))), ...dnsNames.map((d) => tlv(0x82, Buffer.from(d))));
  const extensions = tlv(
    0xa3,
    seq(
      extension('2.5.29.19', true, seq(tlv(0x01, Buffer.from([0xff])))),
      // digitalSignature and keyCertSign (bits 0 and 5; two unused bits).
      extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x02, 0x84]))),
      extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))),
      extension('2.5.29.17', false, altNames),
    ),
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    positiveInteger(serial),
    algorithm,
    name,
    seq(utcTime(now - 3600_000), utcTime(now + 365 * 24 * 3600_000)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, algorithm, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const pem = (label: string, data: Buffer): string => `-----BEGIN ${label}-----\n${data.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert: pem('CERTIFICATE', der) };
}
