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
import type { ReconcileContext } from '../../client/controller';
import { isAlreadyExists } from '../../client/errors';
import { deletedObject, type DeletedFinalStateUnknown } from '../../client/informer';
import { NAMESPACES, SERVICEACCOUNTS } from '../../client/resources';
import type { ControllerDeps } from '../util/deps';
import { LoopController } from '../util/loop-controller';
import type { Namespace } from '../util/types/namespace';

export const SERVICE_ACCOUNT_CONTROLLER_ACCOUNT = 'service-account-controller';

/** The accounts every namespace gets (--service-account-private-key-file aside, just "default"). */
const ACCOUNTS_TO_ENSURE: readonly string[] = ['default'];

export class ServiceAccountsController extends LoopController {
  private readonly namespaces = this.informer<Namespace>(NAMESPACES);
  private readonly accounts = this.informer(SERVICEACCOUNTS);

  constructor(deps: ControllerDeps) {
    super(deps, { name: 'serviceaccount', workers: 1 });
    this.namespaces.addEventHandler({ onAdd: (ns) => this.loop.enqueueObject(ns), onUpdate: (_old, ns) => this.loop.enqueueObject(ns) });
    this.accounts.addEventHandler({
      onDelete: (obj: KubeObject | DeletedFinalStateUnknown) => {
        const sa = deletedObject(obj);
        if (ACCOUNTS_TO_ENSURE.includes(sa.metadata.name ?? '')) this.loop.enqueue(sa.metadata.namespace ?? '', obj);
      },
    });
  }

  protected async sync(name: string, ctx: ReconcileContext): Promise<void> {
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
