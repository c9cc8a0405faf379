/** The short names the timeline gives the identities that act in a cluster. */

const SA_PREFIX = 'system:serviceaccount:';
const NODE_PREFIX = 'system:node:';

/** A controller's service account, a kubelet's node, the scheduler, the admin. */
export function actorName(user: string): string {
  if (user.startsWith(SA_PREFIX)) return user.slice(user.lastIndexOf(':') + 1);
  if (user.startsWith(NODE_PREFIX)) return `kubelet/${user.slice(NODE_PREFIX.length)}`;
  if (user === 'system:kube-scheduler') return 'kube-scheduler';
  if (user === 'system:kube-controller-manager') return 'kube-controller-manager';
  if (user === 'kubernetes-admin') return 'admin';
  return user;
}
