/**
 * Which binding subjects a user is (pkg/registry/rbac/validation appliesToUser) and how the
 * allow reason names them. Users and groups match by name; a ServiceAccount subject matches
 * system:serviceaccount:<namespace>:<name>, its namespace defaulting to the RoleBinding's (a
 * ClusterRoleBinding's ServiceAccount without a namespace matches nobody).
 */
import { goQuote } from '../../../api/gofmt';
import type { UserInfo } from '../../authn/user';
import type { Subject } from './types';

const SA_PREFIX = 'system:serviceaccount:';

export function subjectApplies(user: UserInfo, s: Subject, bindingNamespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.username === s.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns !== '' && user.username === `${SA_PREFIX}${ns}:${s.name}`;
    }
    default:
      return false;
  }
}

/** The index of the first subject that applies, or -1. */
export function firstApplyingSubject(user: UserInfo, subjects: readonly Subject[], bindingNamespace: string): number {
  return subjects.findIndex((s) => subjectApplies(user, s, bindingNamespace));
}

/**
 * Keys under which a binding subject is indexed, and the keys a user looks up: the same string
 * exactly when subjectApplies holds, so a lookup finds the bindings without scanning them.
 */
export function subjectKey(s: Subject, bindingNamespace: string): string | undefined {
  switch (s.kind) {
    case 'User':
      return 'U|' + s.name;
    case 'Group':
      return 'G|' + s.name;
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns === '' ? undefined : `U|${SA_PREFIX}${ns}:${s.name}`;
    }
    default:
      return undefined;
  }
}

export function userKeys(user: UserInfo): string[] {
  return ['U|' + user.username, ...user.groups.map((g) => 'G|' + g)];
}

/** describeSubject: `User "alice"`, `ServiceAccount "default/ns"` (name first, then namespace). */
export function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}
