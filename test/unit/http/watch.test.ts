import { strict as assert } from 'node:assert';
import { request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { serve, type Served } from './harness';

interface Stream {
  response: IncomingMessage;
  /** Resolves with the next `n` event lines. */
  next(n: number): Promise<Record<string, unknown>[]>;
  ended: Promise<void>;
  close(): void;
}

function watch(s: Served, path: string, accept?: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${s.token}` };
    if (accept) headers.Accept = accept;
    const req = request(`${s.endpoint.url}${path}`, { headers, ca: s.endpoint.ca }, (response) => {
      let buffer = '';
      const lines: Record<string, unknown>[] = [];
      let waiter: (() => void) | undefined;
      response.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          lines.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
          buffer = buffer.slice(nl + 1);
        }
        waiter?.();
      });
      const ended = new Promise<void>((r) => response.on('end', () => r()));
      resolve({
        response,
        ended,
        close: () => req.destroy(),
        next: (n) =>
          new Promise((r) => {
            const check = () => {
              if (lines.length >= n) r(lines.splice(0, n));
              else waiter = check;
            };
            check();
          }),
      });
    });
    req.on('error', (err) => (String(err).includes('socket hang up') ? undefined : reject(err)));
    req.end();
  });
}

const cm = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const json = { 'Content-Type': 'application/json' };
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

describe('http: watch', () => {
  let s: Served;
  before(async () => (s = await serve()));
  after(() => s.close());

  it('flushes the headers at once and streams newline-delimited events', async () => {
    const list = (await s.send('GET', '/api/v1/namespaces/default/configmaps')).json();
    const rv = (list.metadata as { resourceVersion: string }).resourceVersion;
    const w = await watch(s, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`);
    assert.equal(w.response.statusCode, 200);
    assert.equal(w.response.headers['content-type'], 'application/json');
    assert.equal(w.response.headers['transfer-encoding'], 'chunked');
    await s.send('POST', '/api/v1/namespaces/default/configmaps', { body: cm('w1'), headers: json });
    await s.send('DELETE', '/api/v1/namespaces/default/configmaps/w1');
    const events = await w.next(2);
    assert.deepEqual(
      events.map((e) => [e.type, (e.object as { metadata: { name: string } }).metadata.name]),
      [
        ['ADDED', 'w1'],
        ['DELETED', 'w1'],
      ],
    );
    w.close();
  });

  it('sends Table rows, headers only in the first, when Accept asks for a Table', async () => {
    await s.send('POST', '/api/v1/namespaces/default/configmaps', { body: cm('t1'), headers: json });
    await s.send('POST', '/api/v1/namespaces/default/configmaps', { body: cm('t2'), headers: json });
    const w = await watch(s, '/api/v1/namespaces/default/configmaps?watch=true', TABLE);
    const [first, second] = await w.next(2);
    const t1 = first!.object as { kind: string; columnDefinitions: unknown[] | null; rows: { cells: unknown[] }[] };
    const t2 = second!.object as typeof t1;
    assert.equal(t1.kind, 'Table');
    assert.equal(t1.columnDefinitions!.length, 3);
    assert.equal(t2.columnDefinitions, null);
    assert.deepEqual([t1.rows[0]!.cells[0], t2.rows[0]!.cells[0]].sort(), ['t1', 't2']);
    w.close();
  });

  it('ends with timeoutSeconds', async () => {
    const w = await watch(s, '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1&resourceVersion=0');
    await w.ended;
  });

  it('answers a watch from a compacted resourceVersion with an ERROR event: 410 Expired', async () => {
    await s.send('POST', '/api/v1/namespaces/default/configmaps', { body: cm('c1'), headers: json });
    await s.cluster.api.compact();
    await s.send('POST', '/api/v1/namespaces/default/configmaps', { body: cm('c2'), headers: json });
    const compactedTo = await s.cluster.api.compact();
    assert.ok(compactedTo && compactedTo > 2);
    const w = await watch(s, '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2');
    const [event] = await w.next(1);
    assert.equal(event!.type, 'ERROR');
    const status = event!.object as Record<string, unknown>;
    assert.equal(status.code, 410);
    assert.equal(status.reason, 'Expired');
    assert.match(String(status.message), /^too old resource version: 2 \(\d+\)$/);
    await w.ended;
  });
});
