/**
 * Admission (k8s.io/apiserver/pkg/admission): plugins that see every write after it is decoded
 * and defaulted. Mutating plugins run first, in order, and may change the object; validating
 * plugins run after field validation, in order, and may only refuse. A plugin refuses by
 * throwing a StatusError carrying kube-apiserver's text.
 */
import type { Clock } from '../../clock';
import type { Random } from '../../random';
import type { KubeObject } from '../../api/types';
import type { ResourceRegistry } from '../../api/registry';
import type { UserInfo } from '../authn/user';
import type { Authorizer } from '../authz/types';
import type { ApiRequest, ApiResponse } from '../request';
import type { ObjectReader } from '../storage/reader';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  readonly operation: Operation;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  /** The name from the request path; for creates, the object's name (or generateName) instead. */
  readonly name: string;
  /** The incoming object; mutating plugins change it in place. Absent for DELETE. */
  readonly object?: KubeObject;
  /** The stored object, for UPDATE and DELETE. */
  readonly oldObject?: KubeObject;
  readonly dryRun: boolean;
  readonly user: UserInfo;
  /**
   * Adds a warning to the response (k8s.io/apiserver/pkg/warning.AddWarning): kubectl prints it
   * as `Warning: ...`. Warnings stand whether or not the request is refused later.
   */
  warn(message: string): void;
  /**
   * Adds an audit annotation to the request's audit event (Attributes.AddAnnotation): the key
   * is prefixed by the plugin (`pod-security.kubernetes.io/enforce-policy`). A key already set
   * keeps its first value, as upstream refuses to overwrite one.
   */
  annotate(key: string, value: string): void;
}

export interface AdmissionContext {
  readonly reader: ObjectReader;
  readonly clock: Clock;
  readonly random: Random;
  /** The resources the server serves (policies' paramKind, equivalent versions). */
  readonly registry: ResourceRegistry;
  /** The server's authorizer, for admission expressions that check permissions. */
  readonly authorizer: Authorizer;
  /**
   * kube-apiserver's loopback client: requests the API server makes to itself (as
   * system:apiserver), e.g. ResourceQuota's status updates. Each is a request of its own.
   */
  loopback(request: ApiRequest): Promise<ApiResponse>;
}

export interface AdmissionPlugin {
  readonly name: string;
  /** Whether the plugin has anything to say about this request (kube: the operation only). */
  handles(a: AdmissionAttributes): boolean;
  /** Mutating phase; returns a short account of what it changed, if anything. */
  admit?(a: AdmissionAttributes, ctx: AdmissionContext): Promise<string | void> | string | void;
  /** Validating phase; may return a short account of what it found (warnings, annotations). */
  validate?(a: AdmissionAttributes, ctx: AdmissionContext): Promise<string | void> | string | void;
}

export const isPod = (a: AdmissionAttributes): boolean => a.group === '' && a.resource === 'pods' && a.subresource === '';
