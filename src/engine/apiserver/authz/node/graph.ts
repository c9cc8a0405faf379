/**
 * The Node authorizer's graph (plugin/pkg/auth/authorizer/node/graph.go), simplified to lookups
 * over the watch cache: an object is related to a node when a pod bound to that node refers to
 * it (directly, or a PV through the PVC it is bound to), or, for VolumeAttachments and
 * ResourceSlices, when the object names the node. The pods' edges are kept up to date from the
 * watch cache, pod by pod, as upstream's graph_populator does: a lookup costs the same with ten
 * pods as with a hundred thousand.
 */
import { isObject, type KubeObject } from '../../../api/types';
import type { CachedEvent, GroupResource, ObjectReader } from '../../storage/reader';
import { Derived } from '../rbac/indexes';
import { podNodeName, podReferences, type ReferenceType } from './references';
import { own } from '../../../api/own';

export type VertexType = ReferenceType | 'pod' | 'pv' | 'volumeattachment' | 'resourceslice';

const PODS: GroupResource = { group: '', resource: 'pods' };
const PVS: GroupResource = { group: '', resource: 'persistentvolumes' };
const VOLUME_ATTACHMENTS: GroupResource = { group: 'storage.k8s.io', resource: 'volumeattachments' };
const RESOURCE_SLICES: GroupResource = { group: 'resource.k8s.io', resource: 'resourceslices' };

const vertex = (namespace: string, type: VertexType, name: string): string => `${namespace}|${type}|${name}`;

/**
 * `namespace|type|name` -> the nodes whose pods refer to it (with how many pods do), and
 * `namespace|pod|name` -> the pod's node; each pod's edges are replaced when it changes.
 */
class PodEdges {
  private readonly nodes = new Map<string, Map<string, number>>();
  private readonly byPod = new Map<string, { node: string; vertices: string[] }>();

  apply(event: CachedEvent): void {
    const pod = event.object;
    const namespace = pod.metadata.namespace ?? '';
    const key = `${namespace}/${pod.metadata.name ?? ''}`;
    const old = this.byPod.get(key);
    if (old) {
      for (const v of old.vertices) this.unlink(v, old.node);
      this.byPod.delete(key);
    }
    const node = event.type === 'DELETED' ? '' : podNodeName(pod);
    if (node === '') return;
    const vertices = [vertex(namespace, 'pod', pod.metadata.name ?? ''), ...podReferences(pod).map(([type, name]) => vertex(namespace, type, name))];
    for (const v of vertices) this.link(v, node);
    this.byPod.set(key, { node, vertices });
  }

  related(namespace: string, type: VertexType, name: string, node: string): boolean {
    return (this.nodes.get(vertex(namespace, type, name))?.get(node) ?? 0) > 0;
  }

  private link(v: string, node: string): void {
    let counts = this.nodes.get(v);
    if (!counts) this.nodes.set(v, (counts = new Map()));
    counts.set(node, (counts.get(node) ?? 0) + 1);
  }

  private unlink(v: string, node: string): void {
    const counts = this.nodes.get(v);
    const n = counts?.get(node) ?? 0;
    if (!counts || n === 0) return;
    if (n > 1) counts.set(node, n - 1);
    else if (counts.size > 1) counts.delete(node);
    else this.nodes.delete(v);
  }
}

const byName = (objs: readonly KubeObject[]): Map<string, KubeObject> => new Map(objs.map((o) => [o.metadata.name ?? '', o]));

function specString(obj: KubeObject | undefined, ...path: string[]): string {
  let v: unknown = obj?.spec;
  for (const p of path) v = isObject(v) ? own(v, p) : undefined;
  return typeof v === 'string' ? v : '';
}

export class NodeGraph {
  private edges: PodEdges | undefined;
  private readonly pvs = new Derived(byName);
  private readonly attachments = new Derived(byName);
  private readonly slices = new Derived(byName);

  constructor(private readonly reader: ObjectReader) {}

  /** hasPathFrom: whether the object reaches the node. */
  hasPath(node: string, type: VertexType, namespace: string, name: string): boolean {
    switch (type) {
      case 'pv': {
        const pv = this.pvs.of(this.reader.cached(PVS)).get(name);
        const claimNamespace = specString(pv, 'claimRef', 'namespace');
        const claimName = specString(pv, 'claimRef', 'name');
        return claimNamespace !== '' && claimName !== '' && this.podEdges().related(claimNamespace, 'pvc', claimName, node);
      }
      case 'volumeattachment':
        return specString(this.attachments.of(this.reader.cached(VOLUME_ATTACHMENTS)).get(name), 'nodeName') === node;
      case 'resourceslice':
        return specString(this.slices.of(this.reader.cached(RESOURCE_SLICES)).get(name), 'nodeName') === node;
      default:
        return namespace !== '' && this.podEdges().related(namespace, type, name, node);
    }
  }

  /** Follows the pods from the first question on. */
  private podEdges(): PodEdges {
    if (!this.edges) {
      const edges = new PodEdges();
      this.reader.follow(PODS, (e) => edges.apply(e));
      this.edges = edges;
    }
    return this.edges;
  }
}
