/**
 * The Node authorizer (plugin/pkg/auth/authorizer/node, --authorization-mode=Node), with
 * AuthorizeNodeWithSelectors on as in 1.35. Kubelets (system:node:<name> in system:nodes) may
 * read the secrets, configmaps, PVCs, PVs, ResourceClaims and VolumeAttachments related to their
 * node, list and watch pods only with a spec.nodeName=<node> field selector, read only their own
 * Node, use only their own Lease in kube-node-lease, and otherwise what the system:node role
 * grants. Its refusals are no-opinions whose reasons end the Forbidden message. NodeRestriction
 * admission limits the writes it lets through (create Node, update pod status, ...).
 */
import { parseFieldSelector } from '../../../api/fieldselector';
import { goQuote } from '../../../api/gofmt';
import type { UserInfo } from '../../authn/user';
import type { ObjectReader } from '../../storage/reader';
import { nodeRules } from '../rbac/bootstrap';
import type { RuleResolver, RulesForResult } from '../rbac/reviews';
import { rulesAllow } from '../rbac/rule-match';
import type { PolicyRule } from '../rbac/types';
import type { Attributes, Authorizer, Decision } from '../types';
import { NodeGraph, type VertexType } from './graph';
import { nodeIdentity } from './identity';

const ALLOW: Decision = { decision: 'Allow', reason: '' };
const noOpinion = (reason: string): Decision => ({ decision: 'NoOpinion', reason });
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** Whether the request's field selector requires field=value (a "=" or "==" term). */
function selectsField(a: Attributes, field: string, value: string): boolean {
  if (!a.fieldSelector) return false;
  const selector = parseFieldSelector(a.fieldSelector);
  return selector.ok && selector.value.terms.some((t) => t.field === field && t.operator === '=' && t.value === value);
}

export class NodeAuthorizer implements Authorizer, RuleResolver {
  private readonly graph: NodeGraph;
  /** bootstrappolicy.NodeRules(), for the requests not subdivided by node. */
  private readonly rules: readonly PolicyRule[] = nodeRules();

  constructor(reader: ObjectReader) {
    this.graph = new NodeGraph(reader);
  }

  /** Kubelets' permissions depend on the graph, so they cannot be listed. */
  rulesFor(user: UserInfo): RulesForResult {
    const isNode = nodeIdentity(user) !== undefined;
    return { resourceRules: [], nonResourceRules: [], incomplete: isNode, errors: isNode ? ['node authorizer does not support user rule resolution'] : [] };
  }

  authorize(a: Attributes): Decision {
    const node = nodeIdentity(a.user);
    if (node === undefined) return noOpinion('');
    if (node === '') return noOpinion(`unknown node for user ${goQuote(a.user.username)}`);
    if (a.isResourceRequest) {
      const decided = this.authorizeResource(node, a);
      if (decided) return decided;
    }
    return rulesAllow(a, this.rules) ? ALLOW : noOpinion('');
  }

  /** The resources whose access is subdivided by node; undefined for the rest. */
  private authorizeResource(node: string, a: Attributes): Decision | undefined {
    switch (`${a.apiGroup}/${a.resource}`) {
      case '/secrets':
        return this.readNamespacedObject(node, 'secret', a);
      case '/configmaps':
        return this.readNamespacedObject(node, 'configmap', a);
      case '/persistentvolumeclaims':
        return a.subresource === 'status' ? this.statusUpdate(node, 'pvc', a) : this.get(node, 'pvc', a);
      case '/persistentvolumes':
        return this.get(node, 'pv', a);
      case 'resource.k8s.io/resourceclaims':
        return this.get(node, 'resourceclaim', a);
      case 'storage.k8s.io/volumeattachments':
        return this.get(node, 'volumeattachment', a);
      case '/serviceaccounts':
        return this.createToken(node, a);
      case 'coordination.k8s.io/leases':
        return this.lease(node, a);
      case 'storage.k8s.io/csinodes':
        return this.csiNode(node, a);
      case 'resource.k8s.io/resourceslices':
        return this.resourceSlice(node, a);
      case '/nodes':
        return this.nodeObject(node, a);
      case '/pods':
        return this.pod(node, a);
      default:
        return undefined;
    }
  }

  private statusUpdate(node: string, type: VertexType, a: Attributes): Decision {
    if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only get/update/patch this type');
    if (a.subresource !== 'status') return noOpinion('can only update status subresource');
    return this.related(node, type, a);
  }

  private get(node: string, type: VertexType, a: Attributes): Decision {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource) return noOpinion('cannot get subresource');
    return this.related(node, type, a);
  }

  private readNamespacedObject(node: string, type: VertexType, a: Attributes): Decision {
    if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch') return noOpinion('can only read resources of this type');
    if (a.subresource) return noOpinion('cannot read subresource');
    if (!a.namespace) return noOpinion('can only read namespaced object of this type');
    return this.related(node, type, a);
  }

  private related(node: string, type: VertexType, a: Attributes): Decision {
    if (!a.name) return noOpinion('No Object name found');
    return this.graph.hasPath(node, type, a.namespace, a.name) ? ALLOW : noOpinion(`no relationship found between node '${node}' and this object`);
  }

  private createToken(node: string, a: Attributes): Decision {
    if (a.verb !== 'create' || !a.name) return noOpinion('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return this.graph.hasPath(node, 'serviceaccount', a.namespace, a.name) ? ALLOW : noOpinion(`no relationship found between node '${node}' and this object`);
  }

  private lease(node: string, a: Attributes): Decision {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
    // The name is unknown on create; NodeRestriction checks it there.
    if (a.verb !== 'create' && a.name !== node) return noOpinion('can only access node lease with the same name as the requesting node');
    return ALLOW;
  }

  private csiNode(node: string, a: Attributes): Decision {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
    if (a.subresource) return noOpinion('cannot authorize CSINode subresources');
    if (a.verb !== 'create' && a.name !== node) return noOpinion('can only access CSINode with the same name as the requesting node');
    return ALLOW;
  }

  private resourceSlice(node: string, a: Attributes): Decision {
    if (a.subresource) return noOpinion('cannot authorize ResourceSlice subresources');
    switch (a.verb) {
      case 'create':
        return ALLOW;
      case 'get':
      case 'update':
      case 'patch':
      case 'delete':
        return this.related(node, 'resourceslice', a);
      case 'watch':
      case 'list':
      case 'deletecollection':
        return selectsField(a, 'nodeName', node) ? ALLOW : noOpinion('can only list/watch/deletecollection resourceslices with nodeName field selector');
      default:
        return noOpinion('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection');
    }
  }

  private nodeObject(node: string, a: Attributes): Decision {
    if (a.subresource === '') {
      // Create/update/patch of any Node passes here; NodeRestriction limits a kubelet to its own.
      if (a.verb === 'create' || a.verb === 'update' || a.verb === 'patch') return ALLOW;
      if (a.verb === 'get' || a.verb === 'list' || a.verb === 'watch') {
        // By name rather than through the graph, so a kubelet can read its Node before creating it.
        if (a.name === node) return ALLOW;
        if (a.name === '') return noOpinion(`node '${node}' cannot read all nodes, only its own Node object`);
        return noOpinion(`node '${node}' cannot read '${a.name}', only its own Node object`);
      }
    } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
      return ALLOW;
    }
    return noOpinion('');
  }

  private pod(node: string, a: Attributes): Decision {
    switch (a.subresource) {
      case '':
        if (a.verb === 'get') return this.get(node, 'pod', a);
        if (a.verb === 'list' || a.verb === 'watch') {
          if (selectsField(a, 'spec.nodeName', node)) return ALLOW;
          if (a.name) return this.related(node, 'pod', a);
          return noOpinion('can only list/watch pods with spec.nodeName field selector');
        }
        // Mirror pods; NodeRestriction limits them to the kubelet's node.
        if (a.verb === 'create' || a.verb === 'delete') return ALLOW;
        break;
      case 'status':
        if (a.verb === 'update' || a.verb === 'patch') return ALLOW;
        break;
      case 'eviction':
        if (a.verb === 'create') return ALLOW;
        break;
    }
    return noOpinion('');
  }
}

/** --authorization-mode=Node. */
export function createNodeAuthorizer(reader: ObjectReader): NodeAuthorizer {
  return new NodeAuthorizer(reader);
}
