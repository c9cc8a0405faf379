/**
 * Service account tokens as kube-apiserver issues and checks them (pkg/serviceaccount: jwt.go,
 * claims.go): RS256 JWTs signed with the cluster's own key, with the issuer, subject, audiences,
 * issue, not-before and expiry times (on the cluster's virtual clock), a unique ID, and the
 * `kubernetes.io` claims naming the service account and the pod, secret or node the token is
 * bound to. A token authenticates while it has not expired and the objects it names still exist
 * with the UIDs it names.
 *
 * The signing key, like every credential, comes from the operating system's randomness
 * (node:crypto), not the seeded Random: it is made once per cluster, on the first token.
 */
import { createHash, createPublicKey, generateKeyPairSync, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import { isObject, type KubeObject } from '../../api/types';
import type { ObjectReader } from '../storage/reader';
import { ALL_AUTHENTICATED, serviceAccountGroups, serviceAccountUsername, type UserInfo } from './user';

/** --service-account-issuer, as kubeadm and kind set it. */
export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** --api-audiences: the issuer by default. */
export const API_AUDIENCES: readonly string[] = [SERVICE_ACCOUNT_ISSUER];

export interface ObjectRef {
  readonly name: string;
  readonly uid: string;
}

export interface ServiceAccountClaims {
  readonly aud: string[];
  readonly exp: number;
  readonly iat: number;
  readonly iss: string;
  readonly jti: string;
  readonly 'kubernetes.io': {
    readonly namespace: string;
    readonly node?: ObjectRef;
    readonly pod?: ObjectRef;
    readonly secret?: ObjectRef;
    readonly serviceaccount: ObjectRef;
  };
  readonly nbf: number;
  readonly sub: string;
}

export interface TokenBinding {
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  readonly node?: ObjectRef;
}

const b64 = (v: string | Buffer): string => Buffer.from(v).toString('base64url');
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Whether a bearer token has the shape of a JWT (three base64url parts). */
export const looksLikeJwt = (token: string): boolean => JWT_SHAPE.test(token);

export class ServiceAccountTokens {
  private key: { privateKey: KeyObject; publicKey: KeyObject; kid: string } | undefined;

  constructor(private readonly issuer = SERVICE_ACCOUNT_ISSUER) {}

  /** The key pair, made on first use: 2048-bit RSA, as kubeadm's sa.key. */
  private keys(): { privateKey: KeyObject; publicKey: KeyObject; kid: string } {
    if (!this.key) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      // keyIDFromPublicKey: the base64url SHA-256 of the key's PKIX DER encoding.
      const kid = createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
      this.key = { privateKey, publicKey, kid };
    }
    return this.key;
  }

  /** The public key in PEM (what /openid/v1/jwks would publish). */
  publicKeyPem(): string {
    return createPublicKey(this.keys().privateKey).export({ type: 'spki', format: 'pem' }).toString();
  }

  /** A signed token for the service account, valid from `nowMs` for `expirationSeconds`. */
  issue(namespace: string, sa: ObjectRef, audiences: readonly string[], nowMs: number, expirationSeconds: number, binding: TokenBinding = {}): { token: string; claims: ServiceAccountClaims } {
    const now = Math.floor(nowMs / 1000);
    const k8s: ServiceAccountClaims['kubernetes.io'] = {
      namespace,
      ...(binding.node ? { node: binding.node } : {}),
      ...(binding.pod ? { pod: binding.pod } : {}),
      ...(binding.secret ? { secret: binding.secret } : {}),
      serviceaccount: sa,
    };
    // go-jose writes the claims as a JSON object with sorted keys.
    const claims: ServiceAccountClaims = {
      aud: [...audiences],
      exp: now + expirationSeconds,
      iat: now,
      iss: this.issuer,
      jti: randomUUID(),
      'kubernetes.io': k8s,
      nbf: now,
      sub: serviceAccountUsername(namespace, sa.name),
    };
    const { privateKey, kid } = this.keys();
    const signingInput = `${b64(JSON.stringify({ alg: 'RS256', kid }))}.${b64(JSON.stringify(claims))}`;
    const signature = sign('sha256', Buffer.from(signingInput), privateKey).toString('base64url');
    return { token: `${signingInput}.${signature}`, claims };
  }

  /** The claims of a token this cluster signed, if its signature and issuer check out (times are checked by `authenticate`). */
  decode(token: string): ServiceAccountClaims | undefined {
    if (!looksLikeJwt(token) || !this.key) return undefined;
    const [header, payload, signature] = token.split('.') as [string, string, string];
    try {
      const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string; kid?: string };
      if (h.alg !== 'RS256') return undefined;
      if (!verify('sha256', Buffer.from(`${header}.${payload}`), this.key.publicKey, Buffer.from(signature, 'base64url'))) return undefined;
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ServiceAccountClaims;
      if (claims.iss !== this.issuer || !isObject(claims['kubernetes.io'] as unknown)) return undefined;
      return claims;
    } catch {
      return undefined;
    }
  }

  /**
   * Authenticates a service account token as kube-apiserver's validator does: signed here, not
   * expired and already valid (go-jose's one-minute leeway on exp, nbf and iat, on the virtual
   * clock), meant for one of the API audiences, and naming a service account (and pod, secret,
   * node) that still exist with those UIDs.
   */
  async authenticate(token: string, nowMs: number, reader: ObjectReader): Promise<UserInfo | undefined> {
    const claims = this.decode(token);
    if (!claims) return undefined;
    const now = Math.floor(nowMs / 1000);
    const LEEWAY = 60;
    if (now > claims.exp + LEEWAY || now < claims.nbf - LEEWAY || now < claims.iat - LEEWAY) return undefined;
    if (!claims.aud.some((a) => API_AUDIENCES.includes(a))) return undefined;
    const k8s = claims['kubernetes.io'];
    const ns = k8s.namespace;
    const exists = async (resource: string, namespace: string, ref: ObjectRef | undefined): Promise<KubeObject | undefined | false> => {
      if (!ref) return undefined;
      const obj = await reader.get({ group: '', resource }, namespace, ref.name);
      return obj && obj.metadata.uid === ref.uid ? obj : false;
    };
    if ((await exists('serviceaccounts', ns, k8s.serviceaccount)) === false) return undefined;
    if ((await exists('pods', ns, k8s.pod)) === false) return undefined;
    if ((await exists('secrets', ns, k8s.secret)) === false) return undefined;
    if ((await exists('nodes', '', k8s.node)) === false) return undefined;
    const extra: Record<string, string[]> = { 'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti}`] };
    if (k8s.pod) {
      extra['authentication.kubernetes.io/pod-name'] = [k8s.pod.name];
      extra['authentication.kubernetes.io/pod-uid'] = [k8s.pod.uid];
    }
    if (k8s.node) {
      extra['authentication.kubernetes.io/node-name'] = [k8s.node.name];
      extra['authentication.kubernetes.io/node-uid'] = [k8s.node.uid];
    }
    return Object.freeze({
      username: serviceAccountUsername(ns, k8s.serviceaccount.name),
      uid: k8s.serviceaccount.uid,
      groups: Object.freeze([...serviceAccountGroups(ns), ALL_AUTHENTICATED]),
      extra,
    }) as UserInfo;
  }
}
