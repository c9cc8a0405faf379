/**
 * The extension's cluster served over HTTPS for kubectl, as `kubesim serve` does (src/http), on
 * the engine's side of the bundle boundary (no vscode import). Requests go through the cluster's
 * own API server, so they show in the panel beside the editor's. The tokens are the API server's
 * (authn/tokens.ts: 256 bits of the operating system's randomness, never the cluster's seeded
 * Random); they are revoked when the endpoint closes.
 */
import type { UserInfo } from '../../engine/apiserver/authn/user';
import type { Cluster } from '../../engine/cluster';
import { kubeconfigText, LOOPBACK, startApiEndpoint } from '../../http';
import { selfSignedCertificate, type SelfSignedCertificate } from '../../http/tls';

export interface EndpointUser {
  /** The kubeconfig's context and user names. */
  context: string;
  user: string;
  info: UserInfo;
}

export interface ServeOptions {
  /** 0 picks a free port. */
  port: number;
  /** The first one's context is current. */
  users: readonly EndpointUser[];
  /** The certificate of an earlier run, so that a kubeconfig's authority stays valid. */
  tls?: SelfSignedCertificate;
}

export interface ServedApi {
  readonly port: number;
  /** https://127.0.0.1:<port> */
  readonly url: string;
  readonly tls: SelfSignedCertificate;
  /** The kubeconfig text: the endpoint, its certificate, a context and token per user. */
  readonly kubeconfig: string;
  /** The contexts, current first. */
  readonly contexts: readonly string[];
  close(): Promise<void>;
}

export async function serveCluster(cluster: Cluster, options: ServeOptions): Promise<ServedApi> {
  const tls = options.tls ?? selfSignedCertificate('kubesim', [LOOPBACK], ['localhost']);
  const endpoint = await startApiEndpoint({ api: cluster.api, clock: cluster.clock, port: options.port, logs: cluster.logs, tls });
  const tokens = options.users.map((u) => ({ context: u.context, user: u.user, token: cluster.server.tokens.issue(u.info) }));
  let closed: Promise<void> | undefined;
  return {
    port: endpoint.port,
    url: endpoint.url,
    tls,
    kubeconfig: kubeconfigText(endpoint.url, endpoint.ca, tokens),
    contexts: tokens.map((t) => t.context),
    close: () => {
      closed ??= (async () => {
        for (const t of tokens) cluster.server.tokens.revoke(t.token);
        await endpoint.close();
      })();
      return closed;
    },
  };
}
