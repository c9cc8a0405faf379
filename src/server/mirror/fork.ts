/**
 * A private copy of the mirror: a new API server over a new in-memory store holding the mirror
 * store's current keys, as restoring an etcd snapshot into a fresh kube-apiserver would give.
 * A manifest's documents are really created in a copy (so that the documents below them see
 * them) without touching the mirror, which stays the live cluster's state.
 */
import { createRbacAuthorizer } from '../../engine/apiserver/authz/rbac';
import { createApiServer, type ApiServer } from '../../engine/apiserver/server';
import { Clock } from '../../engine/clock';
import { Random } from '../../engine/random';
import { createStore, type Store } from '../../engine/store';

/** Events are the bulk of a running cluster's keys and nothing validates against them. */
const SKIPPED_PREFIXES = ['/registry/events/'];
/** Keys copied between yields to the event loop, so a big cluster's copy does not stall requests. */
const KEYS_PER_SLICE = 500;

export async function forkServer(source: Store): Promise<ApiServer> {
  const clock = new Clock();
  const store = createStore({ backend: 'memory', clock });
  const { kvs } = await source.range({ key: '\0', rangeEnd: '\0' });
  for (let i = 0; i < kvs.length; i++) {
    const kv = kvs[i]!;
    if (i > 0 && i % KEYS_PER_SLICE === 0) await new Promise((r) => setImmediate(r));
    if (SKIPPED_PREFIXES.some((p) => kv.key.startsWith(p))) continue;
    await store.put({ key: kv.key, value: kv.value });
  }
  return createApiServer({ store, clock, random: new Random('kubesim-fork'), authorizer: createRbacAuthorizer, compactionIntervalMs: 0 });
}
