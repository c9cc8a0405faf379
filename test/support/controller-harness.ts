/**
 * A control plane for controller scenario tests: an API server with RBAC and its bootstrap
 * objects on the memory store and a virtual clock, the admin client, kube-controller-manager's
 * shared informers (as system:kube-controller-manager) and clients for controller service
 * accounts. No scheduler or kubelets: tests play their part through the admin client.
 */
import { Clock } from '../../src/engine/clock';
import { Random } from '../../src/engine/random';
import { createStore } from '../../src/engine/store';
import { createApiServer, type ApiServer } from '../../src/engine/apiserver/server';
import { createRbacAuthorizer } from '../../src/engine/apiserver/authz/rbac';
import { bootstrapSystemObjects } from '../../src/engine/apiserver/bootstrap';
import { ADMIN_USER, CONTROLLER_MANAGER_USER, serviceAccountUser } from '../../src/engine/apiserver/authn/user';
import { Client, componentUserAgent } from '../../src/engine/client/client';
import { SharedInformerFactory } from '../../src/engine/client/informer';
import type { TraceBuffer } from '../../src/engine/trace/buffer';

export interface ControllerDependencies {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  random: Random;
  trace: TraceBuffer;
}

/** Anything with a control loop: run() resolves when it stops. */
export interface Runnable {
  run(): Promise<void>;
  shutDown(): void;
}

export interface ControllerHarness {
  clock: Clock;
  random: Random;
  server: ApiServer;
  trace: TraceBuffer;
  admin: Client;
  informers: SharedInformerFactory;
  /** A client acting as system:serviceaccount:kube-system:<account>. */
  controllerClient(account: string): Client;
  /** What a controller constructor takes, with the client of its service account. */
  deps(account: string): ControllerDependencies;
  /** Starts the informers created so far and the loops; a loop that fails fails the next clock step. */
  start(...loops: Runnable[]): void;
  close(): Promise<void>;
}

export async function controllerHarness(seed = 'controllers'): Promise<ControllerHarness> {
  const clock = new Clock();
  const random = new Random(seed);
  const store = createStore({ backend: 'memory', clock });
  const server = await createApiServer({ store, clock, random: random.fork('apiserver'), authorizer: createRbacAuthorizer });
  await bootstrapSystemObjects(server);
  const admin = new Client({ server, user: ADMIN_USER, userAgent: 'kubectl/v1.35.0 (linux/amd64) kubernetes/unknown' });
  const kcm = new Client({ server, user: CONTROLLER_MANAGER_USER, userAgent: componentUserAgent('kube-controller-manager', 'shared-informers') });
  const informers = new SharedInformerFactory({ client: kcm, clock, random: random.fork('informers'), component: 'kube-controller-manager' });
  const loops: Runnable[] = [];
  const controllerClient = (account: string): Client =>
    new Client({ server, user: serviceAccountUser('kube-system', account), userAgent: componentUserAgent('kube-controller-manager', account) });
  return {
    clock,
    random,
    server,
    trace: server.trace,
    admin,
    informers,
    controllerClient,
    deps: (account) => ({ client: controllerClient(account), informers, clock, random: random.fork(account), trace: server.trace }),
    start(...started) {
      informers.start();
      for (const loop of started) {
        loops.push(loop);
        loop.run().catch((err: unknown) => {
          clock.queueTask(() => {
            throw err;
          });
        });
      }
    },
    async close() {
      for (const loop of loops) loop.shutDown();
      informers.shutdown();
      await server.close();
    },
  };
}
