/**
 * Bearer-token authentication: a static token file (--token-auth-file) plus the tokens the
 * cluster issues (the admin's and users' kubeconfig tokens, TokenRequest for service accounts).
 * Their holders are looked up, never decoded.
 *
 * Credentials are the one thing the engine draws from the operating system's randomness instead
 * of the seeded Random (docs/architecture.md, invariant 3): the seed is a setting anyone can read,
 * so tokens drawn from it are the same on every machine, and a token that grants system:masters
 * must not be guessable. Nothing replayed depends on them (they are not stored, and drawing them
 * consumes nothing of the cluster's Random), so the same seed still gives the same names, uids,
 * IPs and placements.
 */
import { randomBytes } from 'node:crypto';
import { ALL_AUTHENTICATED, serviceAccountUser, type UserInfo } from './user';

/** Bytes of randomness in a token: 256 bits. */
export const TOKEN_BYTES = 32;

/** A new opaque bearer token: 256 random bits, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export class TokenAuthenticator {
  private readonly users = new Map<string, UserInfo>();

  /** Registers a token for a user; the group system:authenticated is added as kube-apiserver does. */
  add(token: string, u: UserInfo): void {
    const groups = u.groups.includes(ALL_AUTHENTICATED) ? u.groups : [...u.groups, ALL_AUTHENTICATED];
    this.users.set(token, Object.freeze({ ...u, groups: Object.freeze([...groups]) }));
  }

  /** Issues a fresh token for the user and returns it. */
  issue(u: UserInfo): string {
    const token = newToken();
    this.add(token, u);
    return token;
  }

  /** An opaque token for a service account (the signed ones of TokenRequest are service-account-tokens.ts'). */
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
