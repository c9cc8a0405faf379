/**
 * What the API server records for each request: one record per request, holding every pipeline
 * stage in order with its verdict and the rule that decided it (the RBAC binding, the field
 * error, the quota, the admission plugin), plus the etcd revision the request produced.
 */
import type { RecordBase } from './record';

export type RequestStage =
  | 'authentication'
  | 'impersonation'
  | 'authorization'
  | 'decode'
  | 'mutating-admission'
  | 'validation'
  | 'validating-admission'
  | 'storage';

/**
 * passed: the stage let the request through unchanged; mutated: it changed the object;
 * rejected: it ended the request with an error; skipped: it had nothing to do.
 */
export type StageVerdict = 'passed' | 'mutated' | 'rejected' | 'skipped';

export interface StageResult {
  readonly stage: RequestStage;
  readonly verdict: StageVerdict;
  /** The deciding rule: an authorizer's reason, an admission plugin's name, a field path, a quota. */
  readonly rule?: string;
  /** A human-readable account: the error text, what a plugin changed, the storage key. */
  readonly detail?: string;
}

export interface ApiRequestRecord extends RecordBase {
  readonly type: 'api.request';
  readonly user: string;
  readonly groups: readonly string[];
  /** The authenticated user when the request impersonated `user`. */
  readonly impersonatedBy?: string;
  readonly verb: string;
  /** For non-resource requests (/version, /apis): the path; group and resource are then empty. */
  readonly path?: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly dryRun: boolean;
  /** The response's status code. */
  readonly code: number;
  /** For failures: the Status reason and message kube-apiserver would return. */
  readonly reason?: string;
  readonly message?: string;
  readonly warnings?: readonly string[];
  /** The audit event's annotations admission added (PodSecurity's enforce-policy, audit-violations). */
  readonly auditAnnotations?: Readonly<Record<string, string>>;
  readonly stages: readonly StageResult[];
  /** The etcd revision this request wrote, when it wrote one. */
  readonly revision?: number;
  /** For a patch: json, merge, strategic, or apply (server-side apply). */
  readonly patchType?: 'json' | 'merge' | 'strategic' | 'apply';
  /** Virtual ms from the request's arrival to its response, when it took any (the latency model). */
  readonly durationMs?: number;
  /** The client's User-Agent: which program sent it (kubectl, the editor, the control-plane panel). */
  readonly userAgent?: string;
}
