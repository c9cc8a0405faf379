/**
 * `kubesim validate [--strict] [--output text|json] <files or folders...>`: every document of the
 * given manifests goes through the API server's full pipeline, as the cluster admin, against a
 * fresh in-memory cluster that holds the documents given before it (each valid one is stored,
 * so a Namespace or ResourceQuota earlier in the set counts). Errors read as kubectl
 * prints them; `--output json` gives one entry per document with the line and column of each
 * offending node. Exit codes: 0 all valid, 1 any invalid, 2 usage errors.
 */
import { readFileSync } from 'node:fs';
import { errorTypeText, type FieldError } from '../engine/api/field';
import { formatKubectlError, withSource } from '../engine/api/kubectl-format';
import { noKindMatchMessage } from '../engine/api/registry';
import type { Status } from '../engine/api/status';
import { isObject, parseApiVersion, type JsonObject, type KubeObject } from '../engine/api/types';
import { computeQuotaStatus } from '../engine/apiserver/admission/resourcequota/plugin';
import { ADMIN_USER, type UserInfo } from '../engine/apiserver/authn/user';
import { createRbacAuthorizer } from '../engine/apiserver/authz/rbac';
import { bootstrapSystemObjects, SYSTEM_NAMESPACES } from '../engine/apiserver/bootstrap';
import { parseManifest, positionOf, type ManifestDocument, type SourceNode } from '../engine/apiserver/decode';
import type { ApiRequest, ApiResponse } from '../engine/apiserver/request';
import { createApiServer, type ApiServer } from '../engine/apiserver/server';
import { Clock } from '../engine/clock';
import { Random } from '../engine/random';
import { createStore, type Store } from '../engine/store';
import { manifestFiles } from './files';

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

const USAGE = `Validate Kubernetes manifests against the Kubernetes 1.35 API server's rules.

Usage:
  kubesim validate [--strict] [--output text|json] <files or folders...>

Options:
  --strict           refuse unknown and duplicate fields (fieldValidation=Strict), as kubectl does
  -o, --output       text (default) or json
`;

const FIELD_MANAGER = 'kubesim-validate';

interface Args {
  strict: boolean;
  output: 'text' | 'json';
  paths: string[];
}

function parseArgs(argv: string[]): Args | string {
  const args: Args = { strict: false, output: 'text', paths: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--strict') args.strict = true;
    else if (a === '--output' || a === '-o') {
      const v = argv[++i];
      if (v !== 'text' && v !== 'json') return `error: --output must be text or json, got ${JSON.stringify(v ?? '')}`;
      args.output = v;
    } else if (a.startsWith('--output=') || a.startsWith('-o=')) {
      const v = a.slice(a.indexOf('=') + 1);
      if (v !== 'text' && v !== 'json') return `error: --output must be text or json, got ${JSON.stringify(v)}`;
      args.output = v;
    } else if (a.startsWith('-') && a !== '-') return `error: unknown flag: ${a}`;
    else args.paths.push(a);
  }
  if (args.paths.length === 0) return 'error: no files or folders given';
  return args;
}

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

/** The line and column of a field: the key of an unknown field, the value of an invalid one. */
function where(doc: ManifestDocument, field: string, preferKey: boolean): { line: number; column: number } {
  const p = field ? positionOf(doc, field) : undefined;
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

function statusReports(doc: ManifestDocument, status: Status): ReportedError[] {
  const message = status.message ?? '';
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
      const status = res.body as unknown as Status;
      report.errors = res.fieldErrors ? res.fieldErrors.map((e) => fieldErrorReport(doc, e)) : statusReports(doc, status);
      report.kubectl = formatKubectlError(withSource(status, verb, doc.fileName));
      return report;
    }
    report.valid = true;
    if (!this.options.dryRun) await this.afterStore(info.group, info.kind, res.body as unknown as KubeObject);
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
  }
}

function textReport(reports: DocumentReport[]): string {
  let out = '';
  for (const r of reports) {
    for (const w of r.warnings) out += `${r.file}:${w.line}:${w.column}: Warning: ${w.message}\n`;
    if (r.valid) continue;
    const lines = (r.kubectl ?? '').replace(/\n$/, '').split('\n');
    const bullets = r.errors.length > 1 && lines[0]!.endsWith(': ') && lines.length === r.errors.length + 1;
    lines.forEach((line, i) => {
      const at = bullets && i > 0 ? r.errors[i - 1]! : i === 0 && r.errors.length === 1 ? r.errors[0]! : { line: r.line, column: 1 };
      out += `${r.file}:${at.line}:${at.column}: ${line}\n`;
    });
  }
  const invalid = reports.filter((r) => !r.valid).length;
  out += `${reports.length} ${reports.length === 1 ? 'document' : 'documents'}, ${invalid} invalid\n`;
  return out;
}

export async function runValidate(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n\n${USAGE}`);
    return 2;
  }
  const files = manifestFiles(args.paths, { recursive: true });
  if (typeof files === 'string') {
    process.stderr.write(`${files}\n`);
    return 2;
  }
  const validator = new Validator(await createValidationCluster(), args.strict);
  const reports: DocumentReport[] = [];
  for (const file of files) reports.push(...(await validator.validateFile(file, readFileSync(file, 'utf8'))));
  await validator.server.close();
  if (args.output === 'json') {
    process.stdout.write(JSON.stringify(reports.map(({ kubectl: _k, ...r }) => r), null, 2) + '\n');
  } else {
    process.stdout.write(textReport(reports));
  }
  return reports.every((r) => r.valid) ? 0 : 1;
}
