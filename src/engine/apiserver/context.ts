/**
 * One request on its way through the pipeline: who sent it, what it targets, and the trace of
 * every stage it has passed so far. Handlers receive it together with the server's parts.
 */
import type { ErrorList } from '../api/field';
import type { Clock } from '../clock';
import type { ResourceRegistry } from '../api/registry';
import type { Random } from '../random';
import type { TraceBuffer } from '../trace/buffer';
import type { StageResult } from '../trace/apiserver';
import type { AdmissionContext, AdmissionPlugin } from './admission/types';
import type { Aggregator } from './aggregator';
import type { CustomResources } from './customresources/catalog';
import type { UserInfo } from './authn/user';
import type { TokenAuthenticator } from './authn/tokens';
import type { ServiceAccountTokens } from './authn/service-account-tokens';
import type { Authorizer } from './authz/types';
import type { ApiRequest, RequestOptions } from './request';
import type { ResourceInfo } from './resources';
import type { ClusterStorage } from './storage/cluster-storage';
import type { ServedStorage } from './storage/served';
import type { ServiceAllocators } from './strategies/service/strategy';
import type { PendingWrite, WriteAttribution } from './write-attribution';
import type { Strategy, StrategyContext } from './strategies/types';
import { setOwn } from '../api/own';

/** The server's parts, as handlers use them. */
export interface ServerParts {
  readonly clock: Clock;
  readonly random: Random;
  readonly trace: TraceBuffer;
  readonly registry: ResourceRegistry;
  readonly storage: ClusterStorage;
  readonly tokens: TokenAuthenticator;
  /** The signed service account tokens TokenRequest issues. */
  readonly serviceAccountTokens: ServiceAccountTokens;
  readonly authorizer: Authorizer;
  readonly admission: readonly AdmissionPlugin[];
  readonly admissionContext: AdmissionContext;
  readonly allocators: ServiceAllocators;
  readonly anonymousAuth: boolean;
  /** Which request wrote each revision (the revision records' causes). */
  readonly writes: WriteAttribution;
  /** The custom resources established CRDs make the server serve. */
  readonly customResources: CustomResources;
  /** APIServices served by other API servers (metrics-server). */
  readonly aggregator: Aggregator;
  strategy(resource: ResourceInfo): Strategy;
}

/** The resource a request targets, with its storage and strategy. */
export interface Target {
  readonly info: ResourceInfo;
  readonly storage: ServedStorage;
  readonly strategy: Strategy;
  readonly namespace: string;
  readonly name: string;
  readonly subresource: string;
}

export class RequestContext {
  readonly stages: StageResult[] = [];
  readonly warnings: string[] = [];
  /** The audit annotations admission added (the request's audit event annotations). */
  readonly auditAnnotations: Record<string, string> = {};
  user: UserInfo | undefined;
  impersonatedBy: string | undefined;
  /** The last etcd revision this request wrote. */
  revision: number | undefined;
  /** Every revision this request wrote, in order (a delete that completes an update writes two). */
  readonly revisions: number[] = [];
  /** The field errors of a failed validation stage. */
  fieldErrors: ErrorList | undefined;
  /** The id of this request's trace record, taken when the request starts. */
  traceId: number | undefined;
  private readonly announced: PendingWrite[] = [];
  private lastWrite: PendingWrite | undefined;

  constructor(
    readonly request: ApiRequest,
    readonly server: ServerParts,
  ) {}

  get options(): RequestOptions {
    return this.request.options ?? {};
  }

  get dryRun(): boolean {
    return this.options.dryRun === true;
  }

  /** A body's DeleteOptions carry their own dryRun, which then holds for the whole request. */
  setDryRun(dryRun: boolean): void {
    if (dryRun !== this.dryRun) this.request.options = { ...this.options, dryRun };
  }

  /**
   * Announces a write just before its etcd transaction: the key and the revision it expects to
   * find there (0: to create it), so the revision it produces is attributed to this request
   * even if the watch cache sees it before the request ends.
   */
  writing(key: string, prevRevision: number): void {
    this.lastWrite = undefined;
    if (this.dryRun || this.traceId === undefined) return;
    this.lastWrite = this.server.writes.expect(key, prevRevision, { request: this.traceId, user: this.user?.username ?? '' });
    this.announced.push(this.lastWrite);
  }

  wrote(revision: number): void {
    this.revision = revision;
    this.revisions.push(revision);
    if (this.lastWrite) this.server.writes.landed(this.lastWrite, revision);
    this.lastWrite = undefined;
  }

  /** The request is over: forget the writes it announced and did not make. */
  finish(): void {
    this.server.writes.finished(this.announced);
  }

  stage(result: StageResult): void {
    this.stages.push(result);
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  annotate(key: string, value: string): void {
    if (!Object.hasOwn(this.auditAnnotations, key)) setOwn(this.auditAnnotations, key, value);
  }

  get strategyContext(): StrategyContext {
    return { clock: this.server.clock, random: this.server.random, reader: this.server.storage, dryRun: this.dryRun };
  }
}
