/**
 * The service account controller (pkg/controller/serviceaccount): every active namespace gets
 * a `default` ServiceAccount, and gets it back when it is deleted. Pods are refused by the
 * ServiceAccount admission plugin until it exists, as in a real cluster.
 *
 * Runs as system:serviceaccount:kube-system:service-account-controller.
 */
import { aggregateMessage } from '../../api/field';
import { StatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import type { Controller, ReconcileContext } from '../../client/controller';
import { isAlreadyExists } from '../../client/errors';
import { deletedObject, type DeletedFinalStateUnknown, type SharedIndexInformer } from '../../client/informer';
import { NAMESPACES, SERVICEACCOUNTS } from '../../client/resources';
import { controlLoop, type ControllerDeps } from '../util/deps';
import type { Namespace } from '../util/types/namespace';

export const SERVICE_ACCOUNT_CONTROLLER_ACCOUNT = 'service-account-controller';

/** The accounts every namespace gets (--service-account-private-key-file aside, just "default"). */
const ACCOUNTS_TO_ENSURE: readonly string[] = ['default'];

export class ServiceAccountsController {
  readonly loop: Controller;
  private readonly namespaces: SharedIndexInformer<Namespace>;
  private readonly accounts: SharedIndexInformer;

  constructor(deps: ControllerDeps) {
    this.namespaces = deps.informers.informerFor<Namespace>(NAMESPACES);
    this.accounts = deps.informers.informerFor(SERVICEACCOUNTS);
    this.loop = controlLoop(deps, {
      name: 'serviceaccount',
      workers: 1,
      informers: [this.namespaces, this.accounts] as SharedIndexInformer[],
      sync: (key, ctx) => this.sync(key, ctx),
    });
    this.namespaces.addEventHandler({ onAdd: (ns) => this.loop.enqueueObject(ns), onUpdate: (_old, ns) => this.loop.enqueueObject(ns) });
    this.accounts.addEventHandler({
      onDelete: (obj: KubeObject | DeletedFinalStateUnknown) => {
        const sa = deletedObject(obj);
        if (ACCOUNTS_TO_ENSURE.includes(sa.metadata.name ?? '')) this.loop.enqueue(sa.metadata.namespace ?? '', obj);
      },
    });
  }

  run(): Promise<void> {
    return this.loop.run();
  }

  shutDown(): void {
    this.loop.shutDown();
  }

  private async sync(name: string, ctx: ReconcileContext): Promise<void> {
    const ns = this.namespaces.indexer.getByName('', name);
    if (!ns || ns.status?.phase !== 'Active') return;
    const failures: Error[] = [];
    for (const account of ACCOUNTS_TO_ENSURE) {
      if (this.accounts.indexer.getByName(name, account)) continue;
      ctx.observe(`creating ServiceAccount ${account}`);
      try {
        await ctx.client.resource(SERVICEACCOUNTS, name).create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: account, namespace: name } });
      } catch (err) {
        if (!(err instanceof StatusError)) throw err;
        if (isAlreadyExists(err) || (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating')) continue;
        failures.push(err);
      }
    }
    if (failures.length > 0) throw new Error(aggregateMessage(failures));
  }
}
