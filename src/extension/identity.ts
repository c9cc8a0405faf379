/**
 * Who the editor acts as: the `kubesim.user` setting and the Switch User command name the
 * cluster admin, a user with groups, a service account or a node. Applies go out with this
 * identity and the language server validates with it, so RBAC answers as it would to kubectl.
 */
import { fail, ok, type Result } from '../engine/api/result';

export interface Identity {
  readonly username: string;
  readonly groups: readonly string[];
}

const AUTHENTICATED = 'system:authenticated';

/** kubeadm's admin.conf user: a member of system:masters, allowed everything. */
export const ADMIN: Identity = { username: 'kubernetes-admin', groups: ['system:masters', AUTHENTICATED] };

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * "kubernetes-admin" (or empty), "jane", "jane:dev,qa" (a user and its groups),
 * "system:serviceaccount:<namespace>:<name>", "system:node:<name>"; other "system:" names are
 * taken whole. The authenticator adds system:authenticated, as kube-apiserver's do.
 */
export function parseIdentity(spec: string): Result<Identity> {
  const s = spec.trim();
  if (s === '' || s === ADMIN.username) return ok(ADMIN);
  const sa = /^system:serviceaccount:([^:]*):([^:]*)$/.exec(s);
  if (sa) {
    const [, ns, name] = sa as unknown as [string, string, string];
    if (!DNS_LABEL.test(ns) || !DNS_SUBDOMAIN.test(name)) return fail(`"${s}" is not a service account name: use system:serviceaccount:<namespace>:<name>`);
    return ok({ username: s, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, AUTHENTICATED] });
  }
  if (s.startsWith('system:node:')) return ok({ username: s, groups: ['system:nodes', AUTHENTICATED] });
  if (s.startsWith('system:')) return ok({ username: s, groups: [AUTHENTICATED] });
  const colon = s.indexOf(':');
  const username = colon < 0 ? s : s.slice(0, colon);
  const groups = colon < 0 ? [] : s.slice(colon + 1).split(',').map((g) => g.trim()).filter((g) => g !== '');
  if (username === '') return fail(`"${s}" names no user: use <name> or <name>:<group>,<group>`);
  return ok({ username, groups: [...new Set([...groups, AUTHENTICATED])] });
}

/** The setting value that names an identity (parseIdentity's inverse). */
export function identitySpec(id: Identity): string {
  if (id.username === ADMIN.username || id.username.startsWith('system:')) return id.username;
  const groups = id.groups.filter((g) => g !== AUTHENTICATED);
  return groups.length > 0 ? `${id.username}:${groups.join(',')}` : id.username;
}

export function describeIdentity(id: Identity): string {
  const sa = /^system:serviceaccount:([^:]*):([^:]*)$/.exec(id.username);
  if (sa) return `service account ${sa[1]}/${sa[2]}`;
  const groups = id.groups.filter((g) => g !== AUTHENTICATED);
  return groups.length > 0 ? `${id.username} (${groups.join(', ')})` : id.username;
}
