/**
 * The one validator (docs/architecture.md, invariant 4): every document of a manifest goes
 * through the API server's full pipeline against a fresh in-memory cluster that holds the
 * documents given before it (each valid one is stored, so a Namespace or ResourceQuota earlier in
 * the set counts), or, for the language server, in dry run against its mirror of the live
 * cluster. Each document's report carries the line and column of each offending node and the
 * error as kubectl prints it. `kubesim validate` (src/cli/validate.ts) is a face over it.
 */
import { errorTypeText, type FieldError } from '../api/field';
import { formatKubectlError, withSource } from '../kubectl/format';
import { noKindMatchMessage } from '../api/registry';
import type { Status } from '../api/status';
import { isObject, parseApiVersion, type JsonObject, type KubeObject } from '../api/types';
import { computeQuotaStatus } from '../apiserver/admission/resourcequota/plugin';
import { ADMIN_USER, type UserInfo } from '../apiserver/authn/user';
import { createRbacAuthorizer } from '../apiserver/authz/rbac';
import { bootstrapSystemObjects, SYSTEM_NAMESPACES } from '../apiserver/bootstrap';
import { parseManifest, positionOf, type ManifestDocument, type SourceNode } from '../apiserver/decode';
import type { ApiRequest, ApiResponse } from '../apiserver/request';
import { createApiServer, type ApiServer } from '../apiserver/server';
import { Clock } from '../clock';
import { Random } from '../random';
import { createStore, type Store } from '../store';
import { applyErrorText, applyRequest } from '../kubectl/apply';
import type { FieldValidation } from '../apiserver/decode';
import { resolveApplyPath } from './apply-paths';

export interface ReportedError {
  field: string;
  type: string;
  detail: string;
  message: string;
  line: number;
  column: number;
}

export interface ReportedWarning {
  message: string;
  line: number;
  column: number;
}

export interface DocumentReport {
  file: string;
  index: number;
  line: number;
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  valid: boolean;
  errors: ReportedError[];
  warnings: ReportedWarning[];
  /** The error as kubectl would print it (text output). */
  kubectl?: string;
}

const FIELD_MANAGER = 'kubesim-validate';

/** A fresh cluster as the validator sees it: kube-apiserver's bootstrap objects and default service accounts. */
export async function createValidationCluster(seed = 'kubesim', clock = new Clock(), store: Store = createStore({ backend: 'memory', clock })): Promise<ApiServer> {
  const server = await createApiServer({
    store,
    clock,
    random: new Random(seed),
    authorizer: createRbacAuthorizer,
    compactionIntervalMs: 0,
  });
  await bootstrapSystemObjects(server);
  for (const ns of SYSTEM_NAMESPACES) await ensureDefaultServiceAccount(server, ns);
  // kube-apiserver's start-up work (its APIServices) is done before it serves.
  await clock.settle({ maxDuration: 0 });
  return server;
}

const admin = (r: Omit<ApiRequest, 'user'>): ApiRequest => ({ ...r, user: ADMIN_USER, userAgent: 'kubesim' });

/** What the service account controller would do for a new namespace. */
async function ensureDefaultServiceAccount(server: ApiServer, namespace: string): Promise<void> {
  await server.handle(
    admin({
      verb: 'create',
      group: '',
      version: 'v1',
      resource: 'serviceaccounts',
      namespace,
      body: { object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } } },
    }),
  );
}

/** What the quota controller would do for a new quota: status.hard and status.used from what exists. */
async function bringQuotaIntoForce(server: ApiServer, quota: KubeObject): Promise<void> {
  const namespace = quota.metadata.namespace ?? '';
  const objects = new Map<string, readonly KubeObject[]>();
  for (const r of server.registry.all()) {
    if (!r.namespaced || !r.verbs.includes('list') || !r.storagePrefix || objects.has(`${r.group}/${r.resource}`)) continue;
    objects.set(`${r.group}/${r.resource}`, await server.reader.list({ group: r.group, resource: r.resource }, namespace));
  }
  // The quota was stored just now: its creation is the cluster's present.
  const status = computeQuotaStatus(quota, objects, Date.parse(quota.metadata.creationTimestamp ?? ''));
  await server.handle(
    admin({
      verb: 'update',
      group: '',
      version: 'v1',
      resource: 'resourcequotas',
      subresource: 'status',
      namespace,
      name: quota.metadata.name,
      body: { object: { ...quota, status } },
    }),
  );
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function documentIdentity(doc: ManifestDocument): Pick<DocumentReport, 'apiVersion' | 'kind' | 'namespace' | 'name'> {
  const obj = doc.object ?? {};
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  return { apiVersion: str(obj.apiVersion), kind: str(obj.kind), namespace: str(meta.namespace), name: str(meta.name) || str(meta.generateName) };
}

/** Where the document's content starts (after a `---` line). */
function documentStart(doc: ManifestDocument): { line: number; column: number } {
  return doc.node ? doc.lines.position(doc.node.start) : { line: doc.range.line, column: doc.range.column };
}

/**
 * Fields the server derives from one a manifest writes: an error about the derived field is shown
 * on the written one when the manifest leaves the derived one out (a Service's clusterIPs follow
 * its clusterIP).
 */
const WRITTEN_AS: ReadonlyArray<[RegExp, string]> = [[/^spec\.clusterIPs(\[\d+\])?$/, 'spec.clusterIP']];

/** The line and column of a field: the key of an unknown field, the value of an invalid one. */
function where(doc: ManifestDocument, field: string, preferKey: boolean): { line: number; column: number } {
  let p = field ? positionOf(doc, field) : undefined;
  if (p && !p.exact) {
    const written = WRITTEN_AS.find(([derived]) => derived.test(field));
    const alt = written && positionOf(doc, written[1]);
    if (alt?.exact) p = alt;
  }
  if (!p) return documentStart(doc);
  const range = (preferKey || !p.exact) && p.key ? p.key : p.value;
  return { line: range.line, column: range.column };
}

function fieldErrorReport(doc: ManifestDocument, e: FieldError): ReportedError {
  return { field: e.field, type: errorTypeText[e.type], detail: e.detail, message: e.message, ...where(doc, e.field, e.type === 'FieldValueRequired') };
}

/**
 * encoding/json names a field by its struct path without list indexes
 * ("spec.containers.ports.containerPort"): the first path through the document that fits.
 */
function withIndexes(doc: ManifestDocument, goPath: string): string {
  const names = goPath.split('.');
  const walk = (node: SourceNode | undefined, i: number, path: string): string | undefined => {
    if (!node) return undefined;
    if (i === names.length) return path;
    if (node.kind === 'array') {
      for (let k = 0; k < node.items.length; k++) {
        const found = walk(node.items[k], i, `${path}[${k}]`);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (node.kind !== 'object') return undefined;
    const entry = [...node.entries].reverse().find((e) => e.key === names[i]);
    return entry ? walk(entry.value, i + 1, path ? `${path}.${names[i]!}` : names[i]!) : undefined;
  };
  return walk(doc.node, 0, '') ?? goPath;
}

const STRICT_FIELD = /(unknown|duplicate) field "([^"]*)"/g;
const GO_TYPE_ERROR = /Go struct field [^ .]+\.(\S+) of type/;

const TYPED_PATCH = /^failed to create typed patch object \([^)]*\): /;

/**
 * Server-side apply's schema check of the applied document (a 500 with the field manager's
 * text): one report per error, at its field, each with the message's head and its own error.
 */
function typedPatchReports(doc: ManifestDocument, message: string): ReportedError[] | undefined {
  const head = TYPED_PATCH.exec(message);
  if (!head) return undefined;
  const body = message.slice(head[0].length);
  const lines = body.startsWith('errors:\n') ? body.slice('errors:\n'.length).split('\n').map((l) => l.replace(/^ {2}/, '')) : [body];
  return lines.map((line) => {
    const resolved = resolveApplyPath(doc.object, line);
    const field = resolved && resolved.rest.startsWith(': ') ? resolved.field : '';
    const detail = resolved && resolved.rest.startsWith(': ') ? resolved.rest.slice(2) : line;
    const type = detail === 'field not declared in schema' ? 'Unknown field' : errorTypeText.FieldValueTypeInvalid;
    return { field, type, detail, message: lines.length === 1 ? message : head[0] + line, ...where(doc, field, type === 'Unknown field') };
  });
}

/** An apply's conflicts (409): one report per conflicting field, at the field. */
function conflictReports(doc: ManifestDocument, status: Status): ReportedError[] | undefined {
  const causes = (status.details?.causes ?? []).filter((c) => c.reason === 'FieldManagerConflict');
  if (status.code !== 409 || causes.length === 0) return undefined;
  return causes.map((c) => {
    const resolved = resolveApplyPath(doc.object, c.field ?? '');
    const field = resolved?.rest === '' ? resolved.field : '';
    const message = causes.length === 1 ? (status.message ?? '') : `${(status.message ?? '').split(': ')[0]}: ${c.message ?? ''}: ${c.field ?? ''}`;
    return { field, type: 'Conflict', detail: c.message ?? '', message, ...where(doc, field, false) };
  });
}

function statusReports(doc: ManifestDocument, status: Status): ReportedError[] {
  const message = status.message ?? '';
  const applied = typedPatchReports(doc, message) ?? conflictReports(doc, status);
  if (applied) return applied;
  if (status.reason === 'BadRequest' && message.includes('strict decoding error:')) {
    return [...message.matchAll(STRICT_FIELD)].map((m) => ({
      field: m[2]!,
      type: m[1] === 'unknown' ? 'Unknown field' : errorTypeText.FieldValueDuplicate,
      detail: `${m[1]} field ${JSON.stringify(m[2])}`,
      message: m[0],
      ...where(doc, m[2]!, true),
    }));
  }
  const typeError = GO_TYPE_ERROR.exec(message);
  if (typeError) {
    const field = withIndexes(doc, typeError[1]!);
    return [{ field, type: errorTypeText.FieldValueTypeInvalid, detail: message, message, ...where(doc, field, false) }];
  }
  const causes = status.details?.causes ?? [];
  if (status.reason === 'Invalid' && causes.length > 0) {
    return causes.map((c) => {
      const typeText = errorTypeText[c.reason as FieldError['type']] ?? c.reason ?? '';
      return { field: c.field ?? '', type: typeText, detail: c.message ?? '', message: `${c.field ?? ''}: ${c.message ?? ''}`, ...where(doc, c.field ?? '', false) };
    });
  }
  const field = causes.find((c) => c.field)?.field ?? '';
  return [{ field, type: status.reason ?? '', detail: message, message, ...where(doc, field, false) }];
}

function warningReports(doc: ManifestDocument, warnings: readonly string[]): ReportedWarning[] {
  return warnings.map((w) => {
    const m = /(?:unknown|duplicate) field "([^"]*)"/.exec(w);
    return { message: w, ...where(doc, m ? m[1]! : '', true) };
  });
}

export interface ValidatorOptions {
  /** dryRun=All: nothing is stored (the language server validates against its mirror this way). */
  dryRun?: boolean;
  /** Who sends the requests; default the cluster admin. */
  user?: UserInfo;
  /**
   * Send each document as the editor's Apply does (server-side apply, field manager kubesim,
   * this field validation) instead of a create, or an update of an object given before.
   */
  apply?: { fieldValidation: FieldValidation };
}

export class Validator {
  constructor(
    readonly server: ApiServer,
    readonly strict: boolean,
    readonly options: ValidatorOptions = {},
  ) {}

  private as(r: Omit<ApiRequest, 'user'>): ApiRequest {
    return { ...r, user: this.options.user ?? ADMIN_USER, userAgent: 'kubesim' };
  }

  async validateFile(file: string, text: string): Promise<DocumentReport[]> {
    const reports: DocumentReport[] = [];
    for (const doc of parseManifest(text, file)) reports.push(await this.validateDocument(doc));
    return reports;
  }

  async validateDocument(doc: ManifestDocument): Promise<DocumentReport> {
    const report: DocumentReport = { file: doc.fileName, index: doc.index, line: documentStart(doc).line, ...documentIdentity(doc), valid: false, errors: [], warnings: [] };
    for (const d of doc.duplicates) report.warnings.push({ message: `duplicate field "${d.path}"`, line: d.range.line, column: d.range.column });
    if (doc.errors.length > 0 || !doc.object) {
      for (const e of doc.errors) report.errors.push({ field: '', type: 'Invalid value', detail: e.message, message: e.message, line: e.range.line, column: e.range.column });
      report.kubectl = doc.errors.map((e) => `error: ${e.kubectl}\n`).join('');
      return report;
    }
    const obj = doc.object;
    const { group, version } = parseApiVersion(report.apiVersion);
    const info = this.server.registry.byGvk(group, version, report.kind);
    if (!info) {
      const message = noKindMatchMessage(group, report.kind, this.server.registry.versionsOfKind(group, report.kind).length > 0 ? this.server.registry.versionsOfKind(group, report.kind) : [version]);
      report.errors.push({ field: 'kind', type: 'NotFound', detail: message, message, ...where(doc, 'kind', false) });
      report.kubectl = `error: resource mapping not found for name: "${report.name}" namespace: "${report.namespace}" from "${doc.fileName}": ${message}\nensure CRDs are installed first\n`;
      return report;
    }
    if (this.options.apply) return this.applyDocument(doc, report);
    const namespace = info.namespaced ? report.namespace || 'default' : '';
    const base = { group, version, resource: info.resource, namespace: namespace || undefined };
    const options = { fieldManager: FIELD_MANAGER, fieldValidation: this.strict ? ('Strict' as const) : ('Warn' as const), dryRun: this.options.dryRun };
    // A write that passes the dry run is stored unchanged by the real one, and one that fails
    // stores nothing: a single real write gives the dry run's answer and the stored object.
    let verb = 'creating';
    let res = await this.server.handle(this.as({ ...base, verb: 'create', options, body: { object: obj } }));
    const name = str(isObject(obj.metadata) ? obj.metadata.name : undefined);
    if (res.code === 409 && res.body.reason === 'AlreadyExists' && name) {
      verb = 'replacing';
      res = await this.replace(base, name, obj, options);
    }
    report.warnings.push(...warningReports(doc, res.warnings));
    if (res.code >= 400) {
      const status = res.body as Status;
      report.errors = res.fieldErrors ? res.fieldErrors.map((e) => fieldErrorReport(doc, e)) : statusReports(doc, status);
      report.kubectl = formatKubectlError(withSource(status, verb, doc.fileName));
      return report;
    }
    report.valid = true;
    if (!this.options.dryRun) await this.afterStore(info.group, info.kind, res.body as KubeObject);
    return report;
  }

  /** The document's server-side apply, as the Apply command sends it; kubectl's failure when none can be sent. */
  private async applyDocument(doc: ManifestDocument, report: DocumentReport): Promise<DocumentReport> {
    const planned = applyRequest(this.server.registry, doc, { fieldValidation: this.options.apply!.fieldValidation, dryRun: this.options.dryRun });
    if (!planned.ok) {
      // kubectl needs a name to apply (a generateName document is for create).
      const message = planned.result.message.replace(/^error: /, '');
      report.errors.push({ field: 'metadata.name', type: errorTypeText.FieldValueRequired, detail: message, message, ...where(doc, 'metadata.name', true) });
      report.kubectl = `${planned.result.message}\n`;
      return report;
    }
    const res = await this.server.handle(this.as(planned.request));
    report.warnings.push(...warningReports(doc, res.warnings));
    if (res.code >= 400) {
      const status = res.body as Status;
      report.errors = res.fieldErrors ? res.fieldErrors.map((e) => fieldErrorReport(doc, e)) : statusReports(doc, status);
      report.kubectl = `${applyErrorText(status, doc.fileName)}\n`;
      return report;
    }
    report.valid = true;
    const info = this.server.registry.byGvk(planned.request.group, planned.request.version, report.kind)!;
    if (!this.options.dryRun) await this.afterStore(info.group, info.kind, res.body as KubeObject);
    return report;
  }

  /** A document naming an object given earlier in the set replaces it, as `kubectl replace` would. */
  private async replace(base: Omit<ApiRequest, 'verb' | 'user'>, name: string, obj: JsonObject, options: ApiRequest['options']): Promise<ApiResponse> {
    const live = await this.server.handle(this.as({ ...base, verb: 'get', name }));
    const meta = isObject(obj.metadata) ? obj.metadata : {};
    const resourceVersion = str(isObject(live.body.metadata) ? live.body.metadata.resourceVersion : undefined);
    return this.server.handle(this.as({ ...base, verb: 'update', name, options, body: { object: { ...obj, metadata: { ...meta, resourceVersion } } } }));
  }

  /** The controllers a fresh cluster would run at once, for what the rest of the set relies on. */
  private async afterStore(group: string, kind: string, obj: KubeObject): Promise<void> {
    if (group === '' && kind === 'Namespace') await ensureDefaultServiceAccount(this.server, obj.metadata.name ?? '');
    if (group === '' && kind === 'ResourceQuota') await bringQuotaIntoForce(this.server, obj);
    // The watch cache catches up with what was stored, as kube-apiserver's informers do in the
    // moment between two of kubectl's requests: admission reads it (a quota given earlier is in
    // force for the next document, not hidden behind a live list of the namespace cached while it
    // had none). For a CRD the apiextensions controllers accept its names and establish it, and
    // its versions are served: the documents after it are checked against its schema, as they
    // would be on a cluster the CRD was applied to (see docs/deviations.md for kubectl apply).
    await this.server.clock.settle({ maxDuration: 0 });
  }
}
