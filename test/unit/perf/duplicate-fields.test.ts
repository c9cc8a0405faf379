/**
 * Repeated fields are found by scanning small objects and with a set in large ones; both must
 * report exactly the repeats: in structs (known fields), maps and free-form values, below and
 * above the scan limit, as strict decoding's "duplicate field" errors.
 */
import assert from 'node:assert/strict';
import { decodeRequestBody } from '../../../src/engine/apiserver/decode';

const pod = { group: '', version: 'v1', kind: 'Pod' };

function strictErrors(body: string): string {
  const r = decodeRequestBody({ body, contentType: 'application/json', expected: pod, fieldValidation: 'Strict' });
  assert.ok(!('object' in r), 'expected a strict decoding error');
  return r.message;
}

const entries = (pairs: Array<[string, unknown]>): string => '{' + pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',') + '}';

describe('perf: repeated fields in small and large objects', () => {
  for (const size of [3, 16, 17, 40]) {
    it(`reports every repeated key of a map, a struct and a free-form value with ${size} entries`, () => {
      const labels: Array<[string, unknown]> = Array.from({ length: size }, (_, i) => [`k${i}`, 'v']);
      labels.push(['k1', 'again'], [`k${size - 1}`, 'again'], ['k1', 'third']);
      const containerFields: Array<[string, unknown]> = [
        ['name', 'c'],
        ['image', 'i'],
        ...['workingDir', 'stdin', 'tty', 'terminationMessagePath'].slice(0, Math.min(4, size)).map((f): [string, unknown] => [f, f === 'stdin' || f === 'tty' ? true : 'x']),
        ...Array.from({ length: Math.max(0, size - 6) }, (_, i): [string, unknown] => [`unknown${i}`, 1]),
        ['image', 'j'],
        ['name', 'd'],
      ];
      const body = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":${entries(labels)},"name":"q"},"spec":{"containers":[${entries(containerFields)}],"overhead":{"cpu":"1","cpu":"2"}}}`;
      const message = strictErrors(body);
      const duplicates = [...message.matchAll(/duplicate field "([^"]*)"/g)].map((m) => m[1]);
      assert.deepEqual(duplicates, ['metadata.labels.k1', `metadata.labels.k${size - 1}`, 'metadata.name', 'spec.containers[0].image', 'spec.containers[0].name', 'spec.overhead.cpu']);
    });
  }
});
