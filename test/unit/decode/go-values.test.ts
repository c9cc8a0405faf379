import { strict as assert } from 'node:assert';
import { decodeGoBase64 } from '../../../src/engine/apiserver/decode/go-base64';
import { parseGoTime, RFC3339, RFC3339_MICRO } from '../../../src/engine/apiserver/decode/go-time';

function base64(text: string): string {
  const r = decodeGoBase64(text);
  return r.ok ? Buffer.from(r.value).toString('latin1') : r.error;
}

function time(layout: typeof RFC3339 | typeof RFC3339_MICRO, text: string): string {
  const r = parseGoTime(layout, text);
  return r.ok ? r.value : r.error;
}

describe('Go value parsing', () => {
  it('decodes base64 as encoding/base64.StdEncoding, errors by byte offset', () => {
    assert.equal(base64('aGVsbG8='), 'hello');
    assert.equal(base64('aGVs\nbG8='), 'hello');
    assert.equal(base64(''), '');
    assert.equal(base64('aGVsbG8'), 'illegal base64 data at input byte 4');
    assert.equal(base64('!!!!'), 'illegal base64 data at input byte 0');
    assert.equal(base64('aGVsbG8=x'), 'illegal base64 data at input byte 8');
    assert.equal(base64('aG=sbG8='), 'illegal base64 data at input byte 2');
    assert.equal(base64('a==='), 'illegal base64 data at input byte 1');
    assert.equal(base64('aGk'), 'illegal base64 data at input byte 0');
    assert.equal(base64('aGVsbG8=='), 'illegal base64 data at input byte 8');
    assert.equal(base64('hello world'), 'illegal base64 data at input byte 5');
  });

  it('parses RFC 3339 as time.Parse does and renders it as metav1.Time marshals', () => {
    assert.equal(time(RFC3339, '2024-01-01T10:00:00Z'), '2024-01-01T10:00:00Z');
    assert.equal(time(RFC3339, '2024-01-01T10:00:00+02:00'), '2024-01-01T08:00:00Z');
    assert.equal(time(RFC3339, '2024-01-01T10:00:00.999Z'), '2024-01-01T10:00:00Z');
    assert.equal(time(RFC3339, '2024-01-01T1:00:00Z'), '2024-01-01T01:00:00Z');
    assert.equal(time(RFC3339, '2024-02-29T00:00:00Z'), '2024-02-29T00:00:00Z');
    assert.equal(time(RFC3339, 'yesterday'), 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    assert.equal(time(RFC3339, '2024-01-01'), 'parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"');
    assert.equal(time(RFC3339, '2024-01-01 10:00:00Z'), 'parsing time "2024-01-01 10:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 10:00:00Z" as "T"');
    assert.equal(time(RFC3339, '2024-1-01T00:00:00Z'), 'parsing time "2024-1-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01T00:00:00Z" as "01"');
    assert.equal(time(RFC3339, '2024-13-01T00:00:00Z'), 'parsing time "2024-13-01T00:00:00Z": month out of range');
    assert.equal(time(RFC3339, '2023-02-29T00:00:00Z'), 'parsing time "2023-02-29T00:00:00Z": day out of range');
    assert.equal(time(RFC3339, '2024-01-01T25:00:00Z'), 'parsing time "2024-01-01T25:00:00Z": hour out of range');
    assert.equal(time(RFC3339, '2024-01-01T10:00:00'), 'parsing time "2024-01-01T10:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"');
    assert.equal(time(RFC3339, '2024-01-01T10:00:00z'), 'parsing time "2024-01-01T10:00:00z" as "2006-01-02T15:04:05Z07:00": cannot parse "z" as "Z07:00"');
    assert.equal(time(RFC3339, '2024-01-01T10:00:00Zjunk'), 'parsing time "2024-01-01T10:00:00Zjunk": extra text: "junk"');
    assert.equal(time(RFC3339, 'é'), 'parsing time "\\xc3\\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xa9" as "2006"');
  });

  it('parses RFC 3339 with microseconds for MicroTime', () => {
    assert.equal(time(RFC3339_MICRO, '2024-01-01T10:00:00.123456Z'), '2024-01-01T10:00:00.123456Z');
    assert.equal(time(RFC3339_MICRO, '2024-01-01T10:00:00.123456-01:30'), '2024-01-01T11:30:00.123456Z');
    assert.equal(
      time(RFC3339_MICRO, '2024-01-01T10:00:00Z'),
      'parsing time "2024-01-01T10:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });
});
