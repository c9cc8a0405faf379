/**
 * Bearer-token authentication: a static token file (--token-auth-file) plus the tokens the
 * cluster issues to service accounts. Tokens are opaque strings drawn from the seeded Random,
 * so a run is reproducible; their holders are looked up, never decoded.
 */
import type { Random } from '../../random';
import { ALL_AUTHENTICATED, serviceAccountUser, type UserInfo } from './user';

export class TokenAuthenticator {
  private readonly users = new Map<string, UserInfo>();

  constructor(private readonly random: Random) {}

  /** Registers a token for a user; the group system:authenticated is added as kube-apiserver does. */
  add(token: string, u: UserInfo): void {
    const groups = u.groups.includes(ALL_AUTHENTICATED) ? u.groups : [...u.groups, ALL_AUTHENTICATED];
    this.users.set(token, Object.freeze({ ...u, groups: Object.freeze([...groups]) }));
  }

  /** Issues a fresh token for the user and returns it. */
  issue(u: UserInfo): string {
    const token = this.random.string(6) + '.' + this.random.string(16);
    this.add(token, u);
    return token;
  }

  issueServiceAccountToken(namespace: string, name: string, uid = ''): string {
    return this.issue(serviceAccountUser(namespace, name, uid));
  }

  revoke(token: string): void {
    this.users.delete(token);
  }

  authenticate(token: string): UserInfo | undefined {
    return this.users.get(token);
  }
}
