/**
 * kube-controller-manager as kubeadm runs it (--use-service-account-credentials): one process
 * with one set of shared informers (as system:kube-controller-manager), and each controller an
 * API client with its own service account in kube-system and a User-Agent ending in that
 * account's name, so every write in the trace names the loop that made it.
 */
import type { ApiServer } from '../apiserver/server';
import { CONTROLLER_MANAGER_USER, controllerUser } from '../apiserver/authn/user';
import type { Clock } from '../clock';
import { Client, componentUserAgent } from '../client/client';
import { SharedInformerFactory } from '../client/informer';
import { ClusterRoleAggregationController, CLUSTERROLE_AGGREGATION_ACCOUNT } from '../controllers/clusterroleaggregation/controller';
import { ValidatingAdmissionPolicyStatusController, VAP_STATUS_CONTROLLER_ACCOUNT } from '../controllers/validatingadmissionpolicystatus/controller';
import { CronJobController, CRONJOB_CONTROLLER_ACCOUNT } from '../controllers/cronjob/controller';
import { DaemonSetController, DAEMONSET_CONTROLLER_ACCOUNT } from '../controllers/daemonset/controller';
import { DisruptionController, DISRUPTION_CONTROLLER_ACCOUNT } from '../controllers/disruption/controller';
import { HorizontalController, HPA_CONTROLLER_ACCOUNT } from '../controllers/podautoscaler/controller';
import { JobController, JOB_CONTROLLER_ACCOUNT } from '../controllers/job/controller';
import { DeploymentController, DEPLOYMENT_CONTROLLER_ACCOUNT } from '../controllers/deployment/controller';
import { EndpointsController, ENDPOINT_CONTROLLER_ACCOUNT } from '../controllers/endpoints/controller';
import type { ControllerDeps } from '../controllers/util/deps';
import { EndpointSliceController, ENDPOINTSLICE_CONTROLLER_ACCOUNT } from '../controllers/endpointslice/controller';
import { GarbageCollector, GARBAGE_COLLECTOR_ACCOUNT } from '../controllers/garbagecollector/collector';
import { NamespaceController, NAMESPACE_CONTROLLER_ACCOUNT } from '../controllers/namespace/controller';
import { NodeLifecycleController, NODE_CONTROLLER_ACCOUNT, type NodeLifecycleSettings } from '../controllers/nodelifecycle/controller';
import { PodGCController, POD_GC_ACCOUNT } from '../controllers/podgc/controller';
import { ResourceQuotaController, RESOURCE_QUOTA_CONTROLLER_ACCOUNT } from '../controllers/resourcequota/controller';
import { StatefulSetController, STATEFULSET_CONTROLLER_ACCOUNT } from '../controllers/statefulset/controller';
import { TTLAfterFinishedController, TTL_AFTER_FINISHED_ACCOUNT } from '../controllers/ttlafterfinished/controller';
import { ReplicaSetController, REPLICASET_CONTROLLER_ACCOUNT } from '../controllers/replicaset/controller';
import { RootCACertPublisher, ROOT_CA_PUBLISHER_ACCOUNT } from '../controllers/rootcacertpublisher/publisher';
import { SIMULATED_ROOT_CA } from '../controllers/rootcacertpublisher/root-ca';
import { ServiceAccountsController, SERVICE_ACCOUNT_CONTROLLER_ACCOUNT } from '../controllers/serviceaccount/controller';
import { TaintEvictionController, TAINT_EVICTION_ACCOUNT } from '../controllers/tainteviction/controller';
import type { Random } from '../random';
import type { TraceBuffer } from '../trace/buffer';

export const KUBE_CONTROLLER_MANAGER = 'kube-controller-manager';

/** A control loop as kube-controller-manager runs it: run() resolves when it stops. */
interface Loop {
  run(): Promise<void>;
  shutDown(): void;
}

export interface ControllerManagerOptions {
  server: ApiServer;
  clock: Clock;
  random: Random;
  trace: TraceBuffer;
  nodeLifecycle?: Partial<NodeLifecycleSettings>;
}

type LoopFactory = (deps: ControllerDeps, server: ApiServer, options: ControllerManagerOptions) => Loop;

/** The controllers kubesim runs, by kube-controller-manager's --controllers name, with their service accounts. */
const CONTROLLERS: readonly { name: string; account: string; create: LoopFactory }[] = [
  { name: 'serviceaccount-controller', account: SERVICE_ACCOUNT_CONTROLLER_ACCOUNT, create: (d) => new ServiceAccountsController(d) },
  { name: 'root-ca-certificate-publisher-controller', account: ROOT_CA_PUBLISHER_ACCOUNT, create: (d) => new RootCACertPublisher(d, SIMULATED_ROOT_CA) },
  { name: 'clusterrole-aggregation-controller', account: CLUSTERROLE_AGGREGATION_ACCOUNT, create: (d) => new ClusterRoleAggregationController(d) },
  { name: 'namespace-controller', account: NAMESPACE_CONTROLLER_ACCOUNT, create: (d, s) => new NamespaceController(d, s.registry) },
  { name: 'garbage-collector-controller', account: GARBAGE_COLLECTOR_ACCOUNT, create: (d, s) => new GarbageCollector(d, s.registry) },
  { name: 'deployment-controller', account: DEPLOYMENT_CONTROLLER_ACCOUNT, create: (d) => new DeploymentController(d) },
  { name: 'replicaset-controller', account: REPLICASET_CONTROLLER_ACCOUNT, create: (d) => new ReplicaSetController(d) },
  { name: 'statefulset-controller', account: STATEFULSET_CONTROLLER_ACCOUNT, create: (d) => new StatefulSetController(d) },
  { name: 'daemonset-controller', account: DAEMONSET_CONTROLLER_ACCOUNT, create: (d) => new DaemonSetController(d) },
  { name: 'job-controller', account: JOB_CONTROLLER_ACCOUNT, create: (d) => new JobController(d) },
  { name: 'cronjob-controller', account: CRONJOB_CONTROLLER_ACCOUNT, create: (d) => new CronJobController(d) },
  { name: 'ttl-after-finished-controller', account: TTL_AFTER_FINISHED_ACCOUNT, create: (d) => new TTLAfterFinishedController(d) },
  { name: 'resourcequota-controller', account: RESOURCE_QUOTA_CONTROLLER_ACCOUNT, create: (d, s) => new ResourceQuotaController(d, s.registry) },
  { name: 'disruption-controller', account: DISRUPTION_CONTROLLER_ACCOUNT, create: (d, s) => new DisruptionController(d, s.registry) },
  { name: 'horizontal-pod-autoscaler-controller', account: HPA_CONTROLLER_ACCOUNT, create: (d, s) => new HorizontalController(d, s.registry) },
  { name: 'endpoints-controller', account: ENDPOINT_CONTROLLER_ACCOUNT, create: (d) => new EndpointsController(d) },
  { name: 'endpointslice-controller', account: ENDPOINTSLICE_CONTROLLER_ACCOUNT, create: (d) => new EndpointSliceController(d) },
  { name: 'node-lifecycle-controller', account: NODE_CONTROLLER_ACCOUNT, create: (d, _s, o) => new NodeLifecycleController(d, o.nodeLifecycle) },
  { name: 'taint-eviction-controller', account: TAINT_EVICTION_ACCOUNT, create: (d) => new TaintEvictionController(d) },
  { name: 'pod-garbage-collector-controller', account: POD_GC_ACCOUNT, create: (d) => new PodGCController(d) },
  { name: 'validatingadmissionpolicy-status-controller', account: VAP_STATUS_CONTROLLER_ACCOUNT, create: (d, s) => new ValidatingAdmissionPolicyStatusController(d, s.registry) },
];

export class KubeControllerManager {
  readonly name = KUBE_CONTROLLER_MANAGER;
  private informers: SharedInformerFactory | undefined;
  private loops: Loop[] = [];

  constructor(private readonly options: ControllerManagerOptions) {}

  start(): void {
    if (this.informers) return;
    const { server, clock, random, trace } = this.options;
    const shared = new Client({ server, user: CONTROLLER_MANAGER_USER, userAgent: componentUserAgent(KUBE_CONTROLLER_MANAGER, 'shared-informers') });
    const informers = new SharedInformerFactory({ client: shared, clock, random: random.fork('kube-controller-manager informers'), component: KUBE_CONTROLLER_MANAGER });
    this.informers = informers;
    this.loops = CONTROLLERS.map(({ name, account, create }) => {
      const client = new Client({ server, user: controllerUser(account), userAgent: componentUserAgent(KUBE_CONTROLLER_MANAGER, account) });
      return create({ client, informers, clock, random: random.fork(name), trace }, server, this.options);
    });
    informers.start();
    for (const loop of this.loops) {
      // A loop that fails is a bug: the clock reports it to whoever drives time.
      loop.run().catch((err: unknown) =>
        clock.queueTask(
          () => {
            throw err;
          },
          { label: 'kube-controller-manager: a control loop failed' },
        ),
      );
    }
  }

  stop(): void {
    for (const loop of this.loops) loop.shutDown();
    this.loops = [];
    this.informers?.shutdown();
    this.informers = undefined;
  }
}
