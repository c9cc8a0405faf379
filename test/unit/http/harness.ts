/** A bare cluster served over HTTPS, and a small client for the tests. */
import { request } from 'node:https';
import { createCluster, type Cluster } from '../../../src/engine/cluster';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import { Pacer } from '../../../src/engine/pacer';
import { realWallClock } from '../../../src/host/wall-clock';
import { startApiEndpoint, type ApiEndpoint } from '../../../src/http';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: Buffer;
  json(): Record<string, unknown>;
}

export interface Served {
  cluster: Cluster;
  endpoint: ApiEndpoint;
  token: string;
  send(method: string, path: string, options?: { body?: string | Buffer; headers?: Record<string, string>; token?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

export async function serve(): Promise<Served> {
  const cluster = await createCluster({ seed: 'http-test', bare: true });
  const endpoint = await startApiEndpoint({ api: cluster.server, clock: cluster.clock });
  const token = cluster.server.tokens.issue(ADMIN_USER);
  const pacer = new Pacer(cluster.clock, realWallClock);
  pacer.resume();
  const send: Served['send'] = (method, path, options = {}) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...options.headers };
      const bearer = options.token === undefined ? token : options.token;
      if (bearer !== null) headers.Authorization = `Bearer ${bearer}`;
      if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
      const req = request(`${endpoint.url}${path}`, { method, headers, ca: endpoint.ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body, json: () => JSON.parse(text) as Record<string, unknown> });
        });
      });
      req.on('error', reject);
      req.end(options.body);
    });
  return {
    cluster,
    endpoint,
    token,
    send,
    close: async () => {
      pacer.dispose();
      await pacer.idle();
      await endpoint.close();
      await cluster.close();
    },
  };
}
