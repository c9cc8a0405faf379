/**
 * What a caller hands the API server and what it gets back. The shapes follow the REST API
 * (verbs, group/version/resource, query options) without HTTP itself: the HTTP facade maps
 * paths, headers and bodies onto these, the in-process client builds them directly.
 */
import type { FieldError } from '../api/field';
import type { JsonObject, JsonValue, KubeObject } from '../api/types';
import type { UserInfo } from './authn/user';
import type * as meta from '../api/generated/meta-v1';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/** The content types kube-apiserver accepts for PATCH, by patch type. */
export const PATCH_CONTENT_TYPES: Readonly<Record<string, PatchType>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';
export type ResourceVersionMatch = 'Exact' | 'NotOlderThan';

/** The Impersonate-User / -Group / -Uid / -Extra-* headers. */
export interface Impersonation {
  user: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/**
 * A request body: a parsed object, or text as sent (JSON or YAML) so that decoding can report
 * duplicate fields and positions the way kube-apiserver's strict decoder does.
 */
export type RequestBody = { object: JsonValue | KubeObject } | { text: string; contentType?: 'application/json' | 'application/yaml' };

export interface RequestOptions {
  /** dryRun=All: the whole pipeline runs and nothing is stored. */
  dryRun?: boolean;
  fieldManager?: string;
  /** Default Warn for create/update/patch; kubectl sends Strict. */
  fieldValidation?: FieldValidation;
  /** Server-side apply: take ownership of conflicting fields. */
  force?: boolean;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: ResourceVersionMatch;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  propagationPolicy?: PropagationPolicy;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  /** The deprecated DeleteOptions.orphanDependents. */
  orphanDependents?: boolean;
}

export interface ApiRequest {
  verb: Verb;
  /** An identity already established (in-process components; the HTTP facade's client certs). */
  user?: UserInfo;
  /** A bearer token; with neither user nor token the request is anonymous. */
  token?: string;
  impersonate?: Impersonation;
  group: string;
  version: string;
  /** The plural resource: "deployments", "pods". */
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  body?: RequestBody;
  /** For patch: which kind of patch the body is. */
  patchType?: PatchType;
  options?: RequestOptions;
  /** The trace record that caused this request (a reconcile, a kubelet sync). */
  cause?: number;
  /** Who sent it (User-Agent), the default field manager: "kubectl", "kube-controller-manager". */
  userAgent?: string;
}

/** A request for a path that is not a resource: /api, /apis, /version, /healthz, /openapi/v3. */
export interface NonResourceRequest {
  /** get, post, put, ... (the HTTP method, lowercased). */
  verb: string;
  path: string;
  user?: UserInfo;
  token?: string;
  impersonate?: Impersonation;
  cause?: number;
}

export interface ApiResponse {
  /** The HTTP status code kube-apiserver would answer with. */
  code: number;
  /** The object, the list, or for failures (code >= 400) a Status. */
  body: JsonObject;
  /** Warning headers' texts, in order. */
  warnings: string[];
  /** The audit annotations admission added to the request's audit event, when there are any. */
  auditAnnotations?: Record<string, string>;
  /** The id of the request's trace record. */
  trace: number;
  /**
   * For a 422 from field validation: the field errors behind the Status's causes, with their
   * type, value and detail (for the editor's diagnostics and `kubesim validate`).
   */
  fieldErrors?: FieldError[];
  /**
   * A body the API server writes as it is rather than as JSON: the aggregator's plain-text
   * "service unavailable" for an APIService that is not available. `body` holds the Status
   * client-go makes of it.
   */
  raw?: { contentType: string; text: string };
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** A metav1.WatchEvent; its object (shared and frozen: copy before changing it) is the object, a bookmark, or a Status for ERROR. */
export type WatchEvent = meta.WatchEvent & { type: WatchEventType };

export type WatchListener = (event: WatchEvent) => void;

export interface WatchHandle {
  /** 200 when the watch started; otherwise the error response and no events follow. */
  readonly response: ApiResponse;
  stop(): void;
}
