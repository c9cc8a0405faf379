/** What every handler of the facade works with: the exchange, the parsed URL, the cluster. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../engine/clock';
import type { ApiServer } from '../engine/apiserver/server';
import type { Impersonation } from '../engine/apiserver/request';
import type { KubeletLogSource } from '../engine/kubelet';
import type { WatchWrites } from './watch-writes';

export interface Facade {
  api: ApiServer;
  clock: Clock;
  /** The kubelets' container output for pods/log, once kubelets run. */
  logs: KubeletLogSource | undefined;
  /** "127.0.0.1:6443": what /api names as the server address. */
  address(): string;
  /** Open watch and log streams, ended at shutdown. */
  streams: Set<() => void>;
  /** When the watch streams' held events are written. */
  watchWrites: WatchWrites;
}

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  token: string;
  impersonate: Impersonation | undefined;
  userAgent: string | undefined;
  facade: Facade;
}
