import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as HostModule from '../../../src/extension/cluster-host';
import type { ClusterHost } from '../../../src/extension/cluster-host';
import { RemoteClusterView } from '../../../src/extension/engine/remote-view';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../../../src/extension/settings';
import { affectedIds } from '../../../src/extension/tree/elements';
import { objectItem } from '../../../src/extension/tree/items';
import { detailsTarget } from '../../../src/extension/tree/targets';
import { REVISION_ANNOTATION, viewSummary } from '../../../src/extension/view-summary';
import { VIEW_KINDS, type ClusterView, type ViewKind, type ViewObject } from '../../../src/extension/view-types';
import type { KubeObject } from '../../../src/engine/api/types';
import type { WallClock } from '../../../src/engine/pacer';
import { computePodResources } from '../../../src/engine/scheduler/cache/resource';
import type { Pod } from '../../../src/engine/scheduler/api';

const examples = (f: string) => readFileSync(join(__dirname, '../../../examples', f), 'utf8');
const still: WallClock = { now: () => 0, after: () => () => undefined };
const settings: KubeSimSettings = { ...DEFAULT_SETTINGS, nodes: { ...DEFAULT_SETTINGS.nodes, count: 2 }, etcd: { ...DEFAULT_SETTINGS.etcd, latency: 'instant' } };

const HPA = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`;

/** Everything the tree and its commands read of one object, as the tree would show it from `view`. */
function shown(view: ClusterView, v: ViewObject): unknown {
  const o = v.object;
  const ctx =
    v.kind === 'nodes'
      ? { podCount: view.podsOnNode(v.key).filter((p) => !['Succeeded', 'Failed'].includes(String((p.object.status as { phase?: unknown } | undefined)?.phase))).length, requested: view.requested(v.key), hasChildren: view.podsOnNode(v.key).length > 0 }
      : v.kind === 'services'
        ? { hasChildren: view.slicesOfService(o.metadata.namespace ?? '', o.metadata.name ?? '').length > 0 }
        : {};
  const rs = o.spec as { replicas?: unknown; template?: { spec?: { containers?: { image?: string }[] } } } | undefined;
  return {
    item: objectItem(v, ctx),
    underNode: objectItem(v, { underNode: true }),
    details: detailsTarget(v),
    // A pod's phase: whether its node counts it (the tree's finished pods) and the status bar's counts.
    phase: v.kind === 'pods' ? (o.status as { phase?: unknown } | undefined)?.phase : undefined,
    refresh: [affectedIds({ kind: v.kind, type: 'MODIFIED', key: v.key, object: o, old: o }), affectedIds({ kind: v.kind, type: 'ADDED', key: v.key, object: o })],
    // Scale and Rollout Undo (commands/workloads.ts).
    workload:
      v.kind === 'deployments'
        ? { uid: o.metadata.uid, replicas: rs?.replicas }
        : v.kind === 'replicasets'
          ? { replicas: rs?.replicas, owners: o.metadata.ownerReferences?.map((r) => [r.uid, r.controller]), revision: o.metadata.annotations?.[REVISION_ANNOTATION], images: (rs?.template?.spec?.containers ?? []).map((c) => c.image).join(', ') }
          : undefined,
  };
}

describe('the host view keeps summaries', function () {
  this.timeout(120_000);
  let host: ClusterHost;

  before(async () => {
    host = await HostModule.ClusterHost.start({ settings, mirror: () => undefined, onError: (err) => assert.fail(String(err)), wall: still });
    await host.apply('web.yaml', examples('web.yaml'));
    await host.apply('hpa.yaml', HPA);
    await host.apply('broken.yaml', examples('broken.yaml'));
    await host.cluster.advance(30_000);
    await host.apply('web-v2.yaml', examples('web-v2.yaml'));
    await host.cluster.advance(30_000);
    await new Promise((r) => setImmediate(r));
  });

  after(() => host.dispose());

  it('shows every tree item, tooltip, click target and command input as the whole objects do', () => {
    const full = host.view;
    const remote = new RemoteClusterView();
    for (const kind of VIEW_KINDS) {
      remote.apply(
        full.list(kind).map((v) => ({
          kind,
          type: 'ADDED' as const,
          key: v.key,
          object: viewSummary(kind, v.object),
          row: v.row as Record<string, string>,
          ...(kind === 'pods' ? { requests: computePodResources(v.object as unknown as Pod).requests } : {}),
        })),
      );
    }
    const counted = new Map<ViewKind, number>();
    for (const kind of VIEW_KINDS) {
      const objects = full.list(kind);
      counted.set(kind, objects.length);
      assert.deepEqual(remote.list(kind).map((v) => v.key), objects.map((v) => v.key), kind);
      for (const v of objects) assert.deepEqual(shown(remote, remote.get(kind, v.key)!), shown(full, v), `${kind} ${v.key}`);
    }
    assert.deepEqual(remote.recentEvents(50).map((v) => v.key), full.recentEvents(50).map((v) => v.key));
    // The cluster had something of each kind to compare (two ReplicaSets of web: the rollout's revisions).
    for (const kind of VIEW_KINDS) assert.ok(counted.get(kind)! > 0, `no ${kind}`);
    assert.ok(counted.get('replicasets')! >= 2);
  });

  it('is much smaller than the object', () => {
    const sizes = (f: (o: KubeObject) => unknown) => full().reduce((n, o) => n + JSON.stringify(f(o)).length, 0);
    const full = () => host.view.list('pods').map((v) => v.object);
    const whole = sizes((o) => o);
    const slim = sizes((o) => viewSummary('pods', o));
    assert.ok(slim * 5 < whole, `summaries ${slim} bytes, objects ${whole}`);
  });
});
