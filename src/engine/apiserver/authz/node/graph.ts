/**
 * The Node authorizer's graph (plugin/pkg/auth/authorizer/node/graph.go), simplified to lookups
 * over the watch cache: an object is related to a node when a pod bound to that node refers to
 * it (directly, or a PV through the PVC it is bound to), or, for VolumeAttachments and
 * ResourceSlices, when the object names the node. Indexes are per namespace and rebuilt only when
 * the cached lists change.
 */
import { isObject, type KubeObject } from '../../../api/types';
import type { GroupResource, ObjectReader } from '../../storage/reader';
import { Derived, DerivedByNamespace } from '../rbac/indexes';
import { podNodeName, podReferences, type ReferenceType } from './references';

export type VertexType = ReferenceType | 'pod' | 'pv' | 'volumeattachment' | 'resourceslice';

const PODS: GroupResource = { group: '', resource: 'pods' };
const PVS: GroupResource = { group: '', resource: 'persistentvolumes' };
const VOLUME_ATTACHMENTS: GroupResource = { group: 'storage.k8s.io', resource: 'volumeattachments' };
const RESOURCE_SLICES: GroupResource = { group: 'resource.k8s.io', resource: 'resourceslices' };

/** For one namespace: `type|name` -> the nodes whose pods refer to it; `pod|name` -> its node. */
class NamespaceEdges {
  private readonly nodes = new Map<string, Set<string>>();

  constructor(pods: readonly KubeObject[]) {
    for (const pod of pods) {
      const node = podNodeName(pod);
      if (node === '') continue;
      this.add(`pod|${pod.metadata.name ?? ''}`, node);
      for (const [type, name] of podReferences(pod)) this.add(`${type}|${name}`, node);
    }
  }

  private add(key: string, node: string): void {
    const set = this.nodes.get(key);
    if (set) set.add(node);
    else this.nodes.set(key, new Set([node]));
  }

  related(type: VertexType, name: string, node: string): boolean {
    return this.nodes.get(`${type}|${name}`)?.has(node) ?? false;
  }
}

const byName = (objs: readonly KubeObject[]): Map<string, KubeObject> => new Map(objs.map((o) => [o.metadata.name ?? '', o]));

function specString(obj: KubeObject | undefined, ...path: string[]): string {
  let v: unknown = obj?.spec;
  for (const p of path) v = isObject(v) ? v[p] : undefined;
  return typeof v === 'string' ? v : '';
}

export class NodeGraph {
  private readonly edges = new DerivedByNamespace((pods) => new NamespaceEdges(pods));
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
        return claimNamespace !== '' && claimName !== '' && this.inNamespace(claimNamespace).related('pvc', claimName, node);
      }
      case 'volumeattachment':
        return specString(this.attachments.of(this.reader.cached(VOLUME_ATTACHMENTS)).get(name), 'nodeName') === node;
      case 'resourceslice':
        return specString(this.slices.of(this.reader.cached(RESOURCE_SLICES)).get(name), 'nodeName') === node;
      default:
        return namespace !== '' && this.inNamespace(namespace).related(type, name, node);
    }
  }

  private inNamespace(namespace: string): NamespaceEdges {
    return this.edges.of(namespace, this.reader.cached(PODS, namespace));
  }
}
