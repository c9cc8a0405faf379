/**
 * The Kubernetes REST API over HTTPS, for kubectl and any other client: a Node https server on
 * 127.0.0.1 (kubectl sends bearer tokens only over TLS) that turns each request into a call on
 * the engine's API server. It keeps serving whatever a request does; a failure inside a handler
 * becomes a 500 Status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ApiServer } from '../engine/apiserver/server';
import { resolveRequestInfo, RequestInfoError } from '../engine/apiserver/request-info';
import type { Clock } from '../engine/clock';
import { WatchWrites } from './watch-writes';
import { badRequestError } from '../engine/api/status';
import type { Exchange, Facade } from './context';
import { bearerToken, impersonation } from './identity';
import type { KubeletLogSource } from '../engine/kubelet';
import { serveNonResource } from './nonresource';
import { asStatusError, writeStatus } from './respond';
import { serveResource } from './resources';
import { selfSignedCertificate, type SelfSignedCertificate } from './tls';

export const LOOPBACK = '127.0.0.1';

export interface ApiEndpointOptions {
  api: ApiServer;
  /** The cluster's clock: AGE columns are computed at its virtual now. */
  clock: Clock;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Only 127.0.0.1 is accepted: the endpoint trusts anyone who holds a token. */
  host?: string;
  /** Container output for pods/log (the kubelets); without it, answers from pod status alone. */
  logs?: KubeletLogSource;
  /** The serving certificate; default a fresh self-signed one for 127.0.0.1. */
  tls?: SelfSignedCertificate;
}

export interface ApiEndpoint {
  readonly port: number;
  /** https://127.0.0.1:<port> */
  readonly url: string;
  /** The certificate (PEM) clients trust: the kubeconfig's certificate-authority-data. */
  readonly ca: string;
  close(): Promise<void>;
}

async function route(x: Exchange): Promise<void> {
  let info;
  try {
    info = resolveRequestInfo(x.req.method ?? 'GET', x.url.pathname, x.url.searchParams);
  } catch (err) {
    if (err instanceof RequestInfoError) return writeStatus(x.req, x.res, badRequestError(err.message));
    throw err;
  }
  if (info.isResourceRequest) return serveResource(x, info);
  return serveNonResource(x);
}

function handler(facade: Facade) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const exchange: Exchange = {
      req,
      res,
      url: new URL(req.url ?? '/', `http://${LOOPBACK}`),
      token: bearerToken(req),
      impersonate: impersonation(req),
      userAgent: req.headers['user-agent'],
      facade,
    };
    route(exchange).catch((err: unknown) => {
      if (!res.headersSent) writeStatus(req, res, asStatusError(err));
      else res.destroy();
    });
  };
}

export async function startApiEndpoint(options: ApiEndpointOptions): Promise<ApiEndpoint> {
  const host = options.host ?? LOOPBACK;
  if (host !== LOOPBACK) throw new Error(`kubesim serves on ${LOOPBACK} only, not ${host}`);
  let port = 0;
  const facade: Facade = {
    api: options.api,
    clock: options.clock,
    logs: options.logs,
    address: () => `${LOOPBACK}:${port}`,
    streams: new Set(),
    watchWrites: new WatchWrites(options.clock),
  };
  const tls = options.tls ?? selfSignedCertificate('kubesim', [LOOPBACK], ['localhost']);
  const server: Server = createServer({ key: tls.key, cert: tls.cert, keepAliveTimeout: 60_000 }, handler(facade));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `https://${LOOPBACK}:${port}`,
    ca: tls.cert,
    close: () =>
      new Promise<void>((resolve) => {
        for (const end of [...facade.streams]) end();
        facade.watchWrites.dispose();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
