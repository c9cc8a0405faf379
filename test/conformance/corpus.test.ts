/**
 * The conformance corpus: validation cases taken from upstream Kubernetes test tables, kept as
 * data in test/conformance/cases/*.json and run the way the API server runs validation. The
 * case format and the validation modes are described in test/conformance/README.md.
 *
 * The suite fails when fewer than 95% of the cases pass or when a case fails that is not listed,
 * with its reason, in known-deviations.json.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorTypeText, Path, type ErrorList } from '../../src/engine/api/field';
import { nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain, validatePathSegmentName, type NameValidator } from '../../src/engine/api/names';
import { isObject, parseApiVersion, type JsonObject, type KubeObject, type ObjectMeta } from '../../src/engine/api/types';
import { defaulterFor } from '../../src/engine/apiserver/defaults';
import { validatorFor } from '../../src/engine/apiserver/validation';
import type { ApiRequest } from '../../src/engine/apiserver/request';
import { harness, resourceOf } from '../unit/apiserver/harness';
import {
  validateConditions,
  validateCreateOptions,
  validateDeleteOptions,
  validateLabelSelector,
  validateObjectMeta,
  validateObjectMetaUpdate,
  validatePatchOptions,
  validateUpdateOptions,
  type DeleteOptions,
  type PatchOptions,
  type WriteOptions,
} from '../../src/engine/apiserver/validation/meta';

const casesDir = path.join(__dirname, 'cases');
const deviationsFile = path.join(__dirname, 'known-deviations.json');
const requiredPassRate = 0.95;

interface ExpectedError {
  field: string;
  type: string;
  detail: string;
}

/** For the request mode: a request to a fresh API server, and what it must answer. */
interface RequestSpec {
  verb?: ApiRequest['verb'];
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  patchType?: ApiRequest['patchType'];
  body?: unknown;
  dryRun?: boolean;
}

interface ExpectedResponse {
  code: number;
  message?: string;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

interface Case {
  name: string;
  source: string;
  object: KubeObject;
  old?: KubeObject;
  expect: ExpectedError[];
  partial?: boolean;
  subresource?: 'status';
  validate?: string;
  namespaced?: boolean;
  nameRule?: string;
  allowInvalidLabelValueInSelector?: boolean;
  patchType?: string;
  /** request mode: objects created first (as admin), the request (default: create `object`), the answer. */
  setup?: KubeObject[];
  request?: RequestSpec;
  response?: ExpectedResponse;
}

interface Outcome {
  name: string;
  file: string;
  passed: boolean;
  /** Why it failed: the missing and unexpected errors, or what went wrong. */
  problem: string;
}

const nameRules: Record<string, NameValidator> = {
  DNSSubdomain: nameIsDNSSubdomain,
  DNSLabel: nameIsDNSLabel,
  DNS1035Label: nameIsDNS1035Label,
  PathSegment: validatePathSegmentName,
};

const metadataOf = (o: KubeObject | undefined): ObjectMeta => (o && isObject(o.metadata) ? o.metadata : {});
const at = (o: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((cur, k) => (isObject(cur) ? cur[k] : undefined), o);

/** Runs the kind's defaulting and validation as the API server does for a create or update. */
function validateKind(c: Case): ErrorList {
  const obj = structuredClone(c.object);
  const old = c.old === undefined ? undefined : structuredClone(c.old);
  const { group } = parseApiVersion(String(obj.apiVersion ?? ''));
  const kind = String(obj.kind ?? '');
  const defaulter = defaulterFor(group, kind);
  defaulter?.(obj);
  if (old) defaulter?.(old);
  const validator = validatorFor(group, kind);
  if (!validator) throw new Error(`no validator registered for ${group || 'core'}/${kind}`);
  const options = { namespace: metadataOf(obj).namespace };
  if (!old) return validator.create(obj, options);
  if (c.subresource === 'status') {
    return validator.updateStatus ? validator.updateStatus(obj, old, options) : validateObjectMetaUpdate(obj.metadata, old.metadata, Path.root('metadata'));
  }
  return validator.update(obj, old, options);
}

/** The direct modes call one meta validator on part of the case's object. */
const modes: Record<string, (c: Case) => ErrorList> = {
  kind: validateKind,
  objectMeta: (c) => {
    if (c.old) return validateObjectMetaUpdate(metadataOf(c.object), metadataOf(c.old), Path.root('metadata'));
    const rule = nameRules[c.nameRule ?? 'DNSSubdomain'];
    if (!rule) throw new Error(`unknown nameRule ${c.nameRule}`);
    return validateObjectMeta(metadataOf(c.object), c.namespaced ?? true, rule, Path.root('metadata'));
  },
  labelSelector: (c) =>
    validateLabelSelector(at(c.object, 'spec', 'selector'), { allowInvalidLabelValueInSelector: c.allowInvalidLabelValueInSelector ?? false }, Path.root('spec', 'selector')),
  conditions: (c) => validateConditions(at(c.object, 'status', 'conditions'), Path.root('status', 'conditions')),
  deleteOptions: (c) => validateDeleteOptions(c.object as unknown as DeleteOptions),
  createOptions: (c) => validateCreateOptions(c.object as unknown as WriteOptions),
  updateOptions: (c) => validateUpdateOptions(c.object as unknown as WriteOptions),
  patchOptions: (c) => validatePatchOptions(c.object as unknown as PatchOptions, c.patchType ?? ''),
};

/**
 * The request mode: a fresh API server (memory store, every default admission plugin), the
 * setup objects created in order, then the request; its code, message, warnings and audit
 * annotations are compared with `response`, its field errors with `expect`.
 */
async function runRequest(c: Case): Promise<{ errors: ErrorList; problem: string }> {
  const h = await harness();
  try {
    for (const o of c.setup ?? []) await h.create(o as unknown as JsonObject);
    const r = c.request ?? {};
    const meta = metadataOf(c.object);
    const { group, version } = parseApiVersion(String(c.object.apiVersion ?? 'v1'));
    const res = await h.req({
      verb: r.verb ?? 'create',
      group: r.group ?? group,
      version: r.version ?? version,
      resource: r.resource ?? resourceOf(h.server, String(c.object.apiVersion ?? 'v1'), String(c.object.kind ?? '')),
      subresource: r.subresource,
      namespace: r.namespace ?? meta.namespace,
      name: r.name,
      patchType: r.patchType,
      body: r.body !== undefined ? { object: r.body as JsonObject } : r.verb === undefined || r.verb === 'create' || r.verb === 'update' ? { object: c.object } : undefined,
      options: r.dryRun ? { dryRun: true } : undefined,
    });
    const want = c.response;
    const problems: string[] = [];
    if (want) {
      if (res.code !== want.code) problems.push(`  code ${res.code}, expected ${want.code}`);
      if (want.message !== undefined && res.body.message !== want.message) problems.push(`  message ${JSON.stringify(res.body.message)}\n  expected ${JSON.stringify(want.message)}`);
      if (want.warnings !== undefined && JSON.stringify(res.warnings) !== JSON.stringify(want.warnings)) problems.push(`  warnings ${JSON.stringify(res.warnings)}\n  expected ${JSON.stringify(want.warnings)}`);
      if (want.auditAnnotations !== undefined && JSON.stringify(res.auditAnnotations ?? {}) !== JSON.stringify(want.auditAnnotations)) {
        problems.push(`  audit annotations ${JSON.stringify(res.auditAnnotations ?? {})}\n  expected ${JSON.stringify(want.auditAnnotations)}`);
      }
    }
    return { errors: res.fieldErrors ?? [], problem: problems.join('\n') };
  } finally {
    await h.close();
  }
}

const key = (e: ExpectedError): string => JSON.stringify([e.field, e.type, e.detail]);

/** Compares as multisets: every expected error produced, and (unless partial) nothing else. */
function compare(produced: ExpectedError[], expected: ExpectedError[], partial: boolean): string {
  const remaining = produced.map(key);
  const missing: string[] = [];
  for (const e of expected) {
    const i = remaining.indexOf(key(e));
    if (i >= 0) remaining.splice(i, 1);
    else missing.push(key(e));
  }
  const unexpected = partial ? [] : remaining;
  if (missing.length === 0 && unexpected.length === 0) return '';
  return [...missing.map((m) => `  missing    ${m}`), ...unexpected.map((u) => `  unexpected ${u}`)].join('\n');
}

function malformed(raw: unknown): string {
  if (!isObject(raw)) return 'not an object';
  if (typeof raw['name'] !== 'string' || raw['name'] === '') return 'no name';
  if (!isObject(raw['object'])) return 'no object';
  if (!Array.isArray(raw['expect'])) return 'no expect list';
  for (const e of raw['expect']) {
    if (!isObject(e) || typeof e['field'] !== 'string' || typeof e['type'] !== 'string' || typeof e['detail'] !== 'string') {
      return 'expect entries need field, type and detail strings';
    }
  }
  if (raw['validate'] !== undefined && raw['validate'] !== 'request' && !(String(raw['validate']) in modes)) return `unknown validate mode ${String(raw['validate'])}`;
  return '';
}

async function runCase(raw: JsonObject, file: string): Promise<Outcome> {
  const name = typeof raw['name'] === 'string' ? raw['name'] : `(unnamed case in ${file})`;
  const problem = malformed(raw);
  if (problem) return { name, file, passed: false, problem: `malformed case: ${problem}` };
  const c = raw as unknown as Case;
  let errs: ErrorList;
  let responseProblem = '';
  try {
    if (c.validate === 'request') ({ errors: errs, problem: responseProblem } = await runRequest(c));
    else errs = modes[c.validate ?? 'kind']!(c);
  } catch (e) {
    return { name, file, passed: false, problem: `threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` };
  }
  const produced = errs.map((e) => ({ field: e.field, type: errorTypeText[e.type], detail: e.detail }));
  const diff = [compare(produced, c.expect, c.partial === true), responseProblem].filter(Boolean).join('\n');
  return { name, file, passed: diff === '', problem: diff };
}

function loadCases(): { raw: JsonObject; file: string }[] {
  if (!fs.existsSync(casesDir)) return [];
  const out: { raw: JsonObject; file: string }[] = [];
  for (const file of fs.readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort()) {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(casesDir, file), 'utf8'));
    // A file holds one case or a list of cases.
    for (const raw of Array.isArray(parsed) ? parsed : [parsed]) out.push({ raw: isObject(raw) ? raw : {}, file });
  }
  return out;
}

function loadDeviations(): Record<string, string> {
  const parsed: unknown = JSON.parse(fs.readFileSync(deviationsFile, 'utf8'));
  assert.ok(isObject(parsed), 'known-deviations.json must map case names to reasons');
  const out: Record<string, string> = {};
  for (const [name, reason] of Object.entries(parsed)) {
    assert.ok(typeof reason === 'string' && reason.length > 0, `known deviation ${name} needs a reason`);
    out[name] = reason;
  }
  return out;
}

describe('conformance corpus', () => {
  it('matches upstream validation on the corpus', async function () {
    this.timeout(120_000);
    const deviations = loadDeviations();
    const outcomes: Outcome[] = [];
    for (const { raw, file } of loadCases()) outcomes.push(await runCase(raw, file));
    const seen = new Map<string, number>();
    for (const o of outcomes) seen.set(o.name, (seen.get(o.name) ?? 0) + 1);
    for (const o of outcomes) {
      if ((seen.get(o.name) ?? 0) > 1 && o.passed) Object.assign(o, { passed: false, problem: 'duplicate case name' });
    }
    const failed = outcomes.filter((o) => !o.passed);
    const unexpected = failed.filter((o) => !(o.name in deviations));
    const passRate = outcomes.length === 0 ? 1 : (outcomes.length - failed.length) / outcomes.length;
    const stale = Object.keys(deviations).filter((n) => outcomes.some((o) => o.name === n && o.passed));

    console.log(
      `conformance corpus: ${outcomes.length} cases, ${outcomes.length - failed.length} passed, ${failed.length} failed ` +
        `(${failed.length - unexpected.length} known deviations), pass rate ${(passRate * 100).toFixed(1)}%`,
    );
    for (const n of stale) console.log(`  known deviation now passes, remove it: ${n}`);

    const report = unexpected
      .slice(0, 40)
      .map((o) => `${o.file}: ${o.name}\n${o.problem}`)
      .join('\n');
    const more = unexpected.length > 40 ? `\n... and ${unexpected.length - 40} more` : '';
    assert.equal(unexpected.length, 0, `cases failing that are not known deviations:\n${report}${more}`);
    assert.ok(passRate >= requiredPassRate, `pass rate ${(passRate * 100).toFixed(1)}% is under ${requiredPassRate * 100}%`);
  });
});
