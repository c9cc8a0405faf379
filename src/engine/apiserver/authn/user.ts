/**
 * Who is asking: k8s.io/apiserver's user.Info, and the well-known names kube-apiserver gives to
 * groups, service accounts and the control-plane components.
 */
import { validateNamespaceName, validateServiceAccountName } from '../../api/names';

export interface UserInfo {
  readonly username: string;
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

export const SYSTEM_MASTERS = 'system:masters';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS = 'system:anonymous';
export const NODES_GROUP = 'system:nodes';
export const ALL_SERVICE_ACCOUNTS = 'system:serviceaccounts';

const SA_PREFIX = 'system:serviceaccount:';
const SA_GROUP_PREFIX = 'system:serviceaccounts:';
const NODE_PREFIX = 'system:node:';

function user(username: string, groups: string[], uid = ''): UserInfo {
  return Object.freeze({ username, uid, groups: Object.freeze(groups), extra: Object.freeze({}) });
}

/** The cluster administrator of the default kubeconfig: a member of system:masters. */
export const ADMIN_USER = user('kubernetes-admin', [SYSTEM_MASTERS, ALL_AUTHENTICATED]);

export const ANONYMOUS_USER = user(ANONYMOUS, [ALL_UNAUTHENTICATED]);

export const SCHEDULER_USER = user('system:kube-scheduler', [ALL_AUTHENTICATED]);

export const CONTROLLER_MANAGER_USER = user('system:kube-controller-manager', [ALL_AUTHENTICATED]);

/** The API server's own loopback identity, for writes it makes on its own behalf. */
export const APISERVER_USER = user('system:apiserver', [SYSTEM_MASTERS, ALL_AUTHENTICATED]);

export function serviceAccountUsername(namespace: string, name: string): string {
  return SA_PREFIX + namespace + ':' + name;
}

export function serviceAccountGroups(namespace: string): string[] {
  return [ALL_SERVICE_ACCOUNTS, SA_GROUP_PREFIX + namespace];
}

export function serviceAccountUser(namespace: string, name: string, uid = ''): UserInfo {
  return user(serviceAccountUsername(namespace, name), [...serviceAccountGroups(namespace), ALL_AUTHENTICATED], uid);
}

/**
 * A controller of kube-controller-manager running with --use-service-account-credentials, by
 * its service account (the suffix of its bootstrap role): `deployment-controller`,
 * `generic-garbage-collector`, `persistent-volume-binder` -> system:serviceaccount:kube-system:<name>.
 */
export function controllerUser(serviceAccount: string): UserInfo {
  return serviceAccountUser('kube-system', serviceAccount);
}

export function nodeUser(nodeName: string): UserInfo {
  return user(NODE_PREFIX + nodeName, [NODES_GROUP, ALL_AUTHENTICATED]);
}

/** serviceaccount.SplitUsername: the namespace and name of a service-account username, if valid. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (validateNamespaceName(namespace, false).length > 0) return undefined;
  if (validateServiceAccountName(name, false).length > 0) return undefined;
  return { namespace, name };
}
