/**
 * metrics-server (kubernetes-sigs/metrics-server v0.9, as its release manifest installs it with
 * --metric-resolution=15s): an API server for metrics.k8s.io/v1beta1 behind kube-apiserver's
 * aggregator. It runs as system:serviceaccount:kube-system:metrics-server with informers on
 * nodes and on Running pods, scrapes every node's kubelet (its resource metrics) at start and
 * then every resolution, keeps the last two points of each node and container (storage.ts), and
 * serves PodMetrics and NodeMetrics from them (api.ts). Its APIService is available once it has
 * node metrics to serve (its readiness probe), so for the first resolution after it starts the
 * API answers 503.
 *
 * kubesim runs it as a control-plane component, not as a pod: its API objects (ServiceAccount,
 * RBAC) are created as the manifest would, its Deployment and Service are not.
 */
import { isStatusError } from '../../api/status';
import type { KubeObject } from '../../api/types';
import type { AggregatedBackend, AggregatedRequest, AggregatedResult } from '../../apiserver/aggregator';
import { ADMIN_USER, serviceAccountUser } from '../../apiserver/authn/user';
import type { ApiServer } from '../../apiserver/server';
import type { Clock, Timer } from '../../clock';
import { Client, componentUserAgent } from '../../client/client';
import { SharedInformerFactory, type SharedIndexInformer } from '../../client/informer';
import { NODES, PODS } from '../../client/resources';
import type { Kubelet, ResourceMetricsBatch } from '../../kubelet';
import type { Random } from '../../random';
import { MetricsApi } from './api';
import { metricsServerObjects, METRICS_SERVER_ACCOUNT, METRICS_SERVER_NAMESPACE } from './manifests';
import { METRICS_APISERVICE, METRICS_GROUP, METRICS_RESOURCES, METRICS_VERSION } from './resources';
import { metricsBatch, NodeStorage, PodStorage } from './storage';

export { METRICS_GROUP, METRICS_VERSION, METRICS_API_VERSION, METRICS_APISERVICE } from './resources';

export const METRICS_SERVER = 'metrics-server';
/** The release manifest's --metric-resolution (metrics-server's own default is 60 s). */
export const DEFAULT_METRIC_RESOLUTION_MS = 15_000;

export interface MetricsServerOptions {
  server: ApiServer;
  clock: Clock;
  random: Random;
  /** The kubelet of a node, to scrape (undefined: the node has no kubelet and cannot be scraped). */
  kubelet(node: string): Kubelet | undefined;
  /** --metric-resolution; default 15 s. */
  resolutionMs?: number;
}

export class MetricsServer implements AggregatedBackend {
  readonly name = METRICS_SERVER;
  readonly apiService = METRICS_APISERVICE;
  readonly group = METRICS_GROUP;
  readonly version = METRICS_VERSION;
  readonly resources = METRICS_RESOURCES;
  readonly resolutionMs: number;
  private informers: SharedInformerFactory | undefined;
  private pods: SharedIndexInformer<KubeObject> | undefined;
  private nodes: SharedIndexInformer<KubeObject> | undefined;
  private podStorage: PodStorage;
  private nodeStorage = new NodeStorage();
  private readonly api: MetricsApi;
  private timer: Timer | undefined;
  private running = false;

  constructor(private readonly options: MetricsServerOptions) {
    this.resolutionMs = options.resolutionMs ?? DEFAULT_METRIC_RESOLUTION_MS;
    this.podStorage = new PodStorage(this.resolutionMs);
    const clock = options.clock;
    this.api = new MetricsApi({
      pods: (ns) => (ns === undefined ? this.pods?.indexer.list() ?? [] : this.pods?.indexer.listNamespace(ns) ?? []),
      pod: (ns, name) => this.pods?.indexer.getByName(ns, name),
      nodes: () => this.nodes?.indexer.list() ?? [],
      node: (name) => this.nodes?.indexer.getByName('', name),
      podUsage: (key) => this.podStorage.usage(key),
      nodeUsage: (name) => this.nodeStorage.usage(name),
      rfc3339: (ms) => clock.rfc3339(ms),
    });
  }

  /** Ready (its /readyz): informers synced and node metrics stored; the APIService's Available. */
  available(): boolean {
    return this.running && this.nodeStorage.ready && this.informers !== undefined && this.pods!.hasSynced() && this.nodes!.hasSynced();
  }

  serve(request: AggregatedRequest): Promise<AggregatedResult> {
    return this.api.serve(request);
  }

  async start(): Promise<void> {
    if (this.running) return;
    const { server, clock, random } = this.options;
    await installObjects(server);
    const user = serviceAccountUser(METRICS_SERVER_NAMESPACE, METRICS_SERVER_ACCOUNT);
    const client = new Client({ server, user, userAgent: componentUserAgent(METRICS_SERVER) });
    const informers = new SharedInformerFactory({ client, clock, random: random.fork('metrics-server informers'), component: METRICS_SERVER });
    this.informers = informers;
    // runningPodMetadataInformer: only Running pods are served.
    this.pods = informers.informerFor(PODS, { fieldSelector: 'status.phase=Running' });
    this.nodes = informers.informerFor(NODES);
    informers.start();
    this.running = true;
    // Fresh storage: a restarted metrics-server has no points.
    this.podStorage = new PodStorage(this.resolutionMs);
    this.nodeStorage = new NodeStorage();
    server.aggregator.register(this);
    // The scrape loop starts once the caches are filled (RunUntil's WaitForCacheSync).
    const pods = this.pods;
    const nodes = this.nodes;
    void Promise.all([pods.whenSynced(), nodes.whenSynced()]).then(() => {
      if (this.running && this.pods === pods) this.tick();
    });
  }

  /** metrics-server goes away: its APIService stays, unavailable (503). */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.options.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.informers?.shutdown();
    this.informers = undefined;
  }

  /** One scrape now, then the next after the resolution (runScrape's ticker). */
  private tick(): void {
    this.scrape();
    this.timer = this.options.clock.setTimer(this.resolutionMs, () => this.tick(), { daemon: true, label: 'metrics-server: scrape' });
  }

  private scrape(): void {
    const answers = new Map<string, ResourceMetricsBatch>();
    const names = (this.nodes?.indexer.list() ?? []).map((n) => n.metadata.name ?? '').sort();
    for (const name of names) {
      // A node whose kubelet is down (or that has none) fails to scrape and is left out.
      const answer = this.options.kubelet(name)?.resourceMetrics();
      if (answer) answers.set(name, answer);
    }
    const batch = metricsBatch(answers);
    this.nodeStorage.store(batch);
    this.podStorage.store(batch);
  }
}

/** What `kubectl apply -f components.yaml` leaves in the API (manifests.ts); kept if already there. */
async function installObjects(server: ApiServer): Promise<void> {
  const admin = new Client({ server, user: ADMIN_USER, userAgent: componentUserAgent('kubectl', 'metrics-server') });
  for (const m of metricsServerObjects()) {
    const api = admin.resource({ group: m.group, version: m.version, resource: m.resource }, m.object.metadata.namespace);
    try {
      await api.create(m.object);
    } catch (err) {
      if (!isStatusError(err) || err.code !== 409) throw err;
    }
  }
}
