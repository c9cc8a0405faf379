/**
 * A control plane for workload controller scenarios: the controller harness with the Deployment
 * and ReplicaSet controllers running, the default namespace and service account, and a fake
 * scheduler and kubelet; plus the reads scenarios assert on.
 */
import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../../src/engine/api/types';
import { DEPLOYMENTS, EVENTS, PODS, REPLICASETS } from '../../../../src/engine/client/resources';
import { DeploymentController, DEPLOYMENT_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/deployment/controller';
import type { Deployment } from '../../../../src/engine/controllers/deployment/types';
import { ReplicaSetController, REPLICASET_CONTROLLER_ACCOUNT } from '../../../../src/engine/controllers/replicaset/controller';
import type { Pod, ReplicaSet } from '../../../../src/engine/controllers/util/types/workload';
import { controllerHarness, type ControllerHarness } from '../../../support/controller-harness';
import { FakeKubelet, type FakeKubeletOptions } from './fake-kubelet';

interface CoreEvent extends KubeObject {
  reason?: string;
  message?: string;
  involvedObject?: { kind?: string; name?: string };
  source?: { component?: string };
}

export class Cluster {
  constructor(
    readonly h: ControllerHarness,
    readonly kubelet: FakeKubelet,
  ) {}

  static async start(kubelet: FakeKubeletOptions = {}): Promise<Cluster> {
    const h = await controllerHarness();
    await h.admin.resource({ group: '', version: 'v1', resource: 'namespaces' }).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }).catch(() => undefined);
    await h.admin.resource({ group: '', version: 'v1', resource: 'serviceaccounts' }, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
    h.start(new DeploymentController(h.deps(DEPLOYMENT_CONTROLLER_ACCOUNT)), new ReplicaSetController(h.deps(REPLICASET_CONTROLLER_ACCOUNT)));
    const k = new FakeKubelet(h.admin, h.clock, kubelet);
    await h.clock.settle();
    return new Cluster(h, k);
  }

  get deployments() {
    return this.h.admin.resource<Deployment>(DEPLOYMENTS, 'default');
  }

  async settle(): Promise<void> {
    const r = await this.h.clock.settle({ maxDuration: 30 * 60 * 1000 });
    assert.ok(r.settled, `not settled: ${r.pending.join(', ')}`);
  }

  async replicaSets(): Promise<ReplicaSet[]> {
    return (await this.h.admin.resource<ReplicaSet>(REPLICASETS, 'default').list()).items;
  }

  async rsAt(revision: string): Promise<ReplicaSet> {
    const rs = (await this.replicaSets()).find((r) => r.metadata.annotations?.['deployment.kubernetes.io/revision'] === revision);
    assert.ok(rs, `no ReplicaSet at revision ${revision}`);
    return rs;
  }

  async pods(): Promise<Pod[]> {
    return (await this.h.admin.resource<Pod>(PODS, 'default').list()).items;
  }

  /** Events in the order they were written, as "<reason>: <message>". */
  async events(reason?: string): Promise<string[]> {
    const items = (await this.h.admin.resource<CoreEvent>(EVENTS, 'default').list()).items;
    return items
      .filter((e) => !reason || e.reason === reason)
      .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
      .map((e) => `${e.reason}: ${e.message}`);
  }

  async edit(f: (d: Deployment) => void): Promise<void> {
    const d = structuredClone(await this.deployments.get('web'));
    f(d);
    await this.deployments.update(d);
  }

  async close(): Promise<void> {
    this.kubelet.stop();
    await this.h.close();
  }
}
