/**
 * nodeidentifier.NodeIdentity: a kubelet is a user named system:node:<name> in group
 * system:nodes. The name may be empty, which the Node authorizer refuses with its own reason.
 */
import { NODES_GROUP, type UserInfo } from '../../authn/user';

const NODE_PREFIX = 'system:node:';

/** The node name of a kubelet identity ('' if unnamed), or undefined for every other user. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.username.startsWith(NODE_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_PREFIX.length);
}
