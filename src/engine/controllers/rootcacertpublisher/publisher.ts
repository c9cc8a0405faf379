/**
 * The root CA certificate publisher (pkg/controller/certificates/rootcacertpublisher): every
 * active namespace has the kube-root-ca.crt ConfigMap with the cluster's CA bundle under
 * ca.crt and the kubernetes.io/description annotation, restored when it is deleted or changed.
 * The ServiceAccount token volume projects it into every pod.
 *
 * Runs as system:serviceaccount:kube-system:root-ca-cert-publisher.
 */
import { StatusError } from '../../api/status';
import type { ConfigMap } from '../../api/generated/core-v1';
import { deepCopy } from '../../client/clone';
import type { Controller, ReconcileContext } from '../../client/controller';
import { isNotFound } from '../../client/errors';
import { deletedObject, type DeletedFinalStateUnknown, type SharedIndexInformer } from '../../client/informer';
import { CONFIGMAPS, NAMESPACES } from '../../client/resources';
import { controlLoop, type ControllerDeps } from '../util/deps';
import type { Namespace } from '../util/types/namespace';

export const ROOT_CA_PUBLISHER_ACCOUNT = 'root-ca-cert-publisher';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export class RootCACertPublisher {
  readonly loop: Controller;
  private readonly namespaces: SharedIndexInformer<Namespace>;
  private readonly configMaps: SharedIndexInformer<ConfigMap>;

  /** `rootCA`: the PEM bundle kube-controller-manager's --root-ca-file holds. */
  constructor(
    deps: ControllerDeps,
    private readonly rootCA: string,
  ) {
    this.namespaces = deps.informers.informerFor<Namespace>(NAMESPACES);
    this.configMaps = deps.informers.informerFor<ConfigMap>(CONFIGMAPS);
    this.loop = controlLoop(deps, {
      name: 'root-ca-cert-publisher',
      workers: 1,
      informers: [this.namespaces, this.configMaps] as SharedIndexInformer[],
      sync: (key, ctx) => this.sync(key, ctx),
    });
    this.namespaces.addEventHandler({
      onAdd: (ns) => this.loop.enqueueObject(ns),
      onUpdate: (_old, ns) => {
        if (ns.status?.phase === 'Active') this.loop.enqueueObject(ns);
      },
    });
    const forConfigMap = (obj: ConfigMap | DeletedFinalStateUnknown<ConfigMap>): void => {
      const cm = deletedObject(obj);
      if (cm.metadata.name === ROOT_CA_CONFIGMAP) this.loop.enqueue(cm.metadata.namespace ?? '', obj);
    };
    this.configMaps.addEventHandler({ onUpdate: (_old, cm) => forConfigMap(cm), onDelete: forConfigMap });
  }

  run(): Promise<void> {
    return this.loop.run();
  }

  shutDown(): void {
    this.loop.shutDown();
  }

  private async sync(namespace: string, ctx: ReconcileContext): Promise<void> {
    if (!this.namespaces.indexer.getByName('', namespace)) return;
    const client = ctx.client.resource<ConfigMap>(CONFIGMAPS, namespace);
    const data = { 'ca.crt': this.rootCA };
    const cm = this.configMaps.indexer.getByName(namespace, ROOT_CA_CONFIGMAP);
    if (!cm) {
      ctx.observe(`creating ${ROOT_CA_CONFIGMAP}`);
      try {
        await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } }, data });
      } catch (err) {
        if (!(err instanceof StatusError)) throw err;
        if (isNotFound(err) || (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating')) return;
        throw err;
      }
      return;
    }
    const sameData = Object.keys(cm.data ?? {}).length === 1 && cm.data?.['ca.crt'] === this.rootCA;
    if (sameData && (cm.metadata.annotations?.[DESCRIPTION_ANNOTATION] ?? '').length > 0) return;
    ctx.observe(`restoring ${ROOT_CA_CONFIGMAP}`);
    const next = deepCopy(cm);
    next.data = data;
    next.metadata.annotations = { ...next.metadata.annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION };
    await client.update(next);
  }
}
