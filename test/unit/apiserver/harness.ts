/** A fresh API server on the memory store, for the apiserver tests. */
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import { createStore } from '../../../src/engine/store';
import type { Store } from '../../../src/engine/store/types';
import { createApiServer, type ApiServer, type ApiServerOptions } from '../../../src/engine/apiserver/server';
import { alwaysAllow } from '../../../src/engine/apiserver/authz/always';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import type { ApiRequest, ApiResponse } from '../../../src/engine/apiserver/request';
import type { JsonObject } from '../../../src/engine/api/types';

export interface Harness {
  clock: Clock;
  store: Store;
  server: ApiServer;
  /** A request as the admin user unless it names a user or token. */
  req(r: Partial<ApiRequest> & Pick<ApiRequest, 'verb' | 'resource'>): Promise<ApiResponse>;
  /** Creates an object as admin; fails the test on error. */
  create(obj: JsonObject, namespace?: string): Promise<JsonObject>;
  /**
   * Lets the watch caches (the informers admission plugins read) take every write made so far:
   * the clock does not run between requests here, and a plugin that reads its informer sees a
   * write only once the watch has delivered it, as in kube-apiserver.
   */
  synced(): Promise<void>;
  close(): Promise<void>;
}

const GROUP_VERSIONS: Record<string, [string, string]> = {
  v1: ['', 'v1'],
};

export function gvOf(apiVersion: string): { group: string; version: string } {
  const known = GROUP_VERSIONS[apiVersion];
  if (known) return { group: known[0], version: known[1] };
  const [group, version] = apiVersion.split('/') as [string, string];
  return { group, version };
}

/** The plural resource of a kind, from the server's registry. */
export function resourceOf(server: ApiServer, apiVersion: string, kind: string): string {
  const { group, version } = gvOf(apiVersion);
  const info = server.registry.byGvk(group, version, kind);
  if (!info) throw new Error(`no resource for ${apiVersion} ${kind}`);
  return info.resource;
}

export async function harness(options: Partial<ApiServerOptions> = {}): Promise<Harness> {
  const clock = new Clock();
  const store = createStore({ backend: 'memory', clock });
  const server = await createApiServer({ store, clock, random: new Random('test'), authorizer: alwaysAllow, ...options });
  // The server's post-start work (the APIServices it registers) is done before it serves, as kube-apiserver's readiness waits for it.
  await clock.settle({ maxDuration: 0 });
  const req: Harness['req'] = (r) =>
    server.handle({ group: '', version: 'v1', ...(r.user || r.token !== undefined ? {} : { user: ADMIN_USER }), ...r });
  const create: Harness['create'] = async (obj, namespace) => {
    const apiVersion = String(obj.apiVersion);
    const { group, version } = gvOf(apiVersion);
    const meta = (obj.metadata ?? {}) as JsonObject;
    const ns = namespace ?? (typeof meta.namespace === 'string' ? meta.namespace : undefined);
    const res = await req({ verb: 'create', group, version, resource: resourceOf(server, apiVersion, String(obj.kind)), namespace: ns, body: { object: obj } });
    if (res.code >= 300) throw new Error(`create failed: ${res.code} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return { clock, store, server, req, create, synced: () => clock.settle({ maxDuration: 0 }).then(() => undefined), close: () => server.close() };
}
