/**
 * Field selectors (k8s.io/apimachinery/pkg/fields, release-1.35): `?fieldSelector=` parsing with
 * upstream's escaping and errors, the per-kind field label conversions that decide which fields
 * a kind can be selected by (pkg/apis/<group>/v1/conversion.go), and the field sets the
 * registries expose for matching (ToSelectableFields in pkg/registry/<group>/<kind>/strategy.go).
 */
import { goQuote } from './gofmt';
import { isObject, type KubeObject } from './types';
import { own } from './own';
import { fail, ok, type Result } from './result';


export interface FieldTerm {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

export type Fields = Readonly<Record<string, string>>;

export class FieldSelector {
  constructor(readonly terms: readonly FieldTerm[]) {}

  /** A missing field reads as "" (fields.Set.Get). */
  matches(fields: Fields): boolean {
    return this.terms.every((t) => ((Object.hasOwn(fields, t.field) ? fields[t.field] : '') === t.value) === (t.operator === '='));
  }

  empty(): boolean {
    return this.terms.length === 0;
  }

  requiresExactMatch(field: string): string | undefined {
    return this.terms.find((t) => t.field === field && t.operator === '=')?.value;
  }

  toString(): string {
    return this.terms.map((t) => `${t.field}${t.operator}${escapeValue(t.value)}`).join(',');
  }
}

/** EscapeValue: backslash, comma and equals sign are escaped with a backslash. */
export function escapeValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => '\\' + c);
}

/** UnescapeValue, with upstream's errors for bad escapes and bare separators. */
export function unescapeValue(s: string): Result<string> {
  if (!/[\\,=]/.test(s)) return ok(s);
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') return fail(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Go prints the rune with %v, i.e. as its code point number.
      return fail(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) return fail('invalid field selector: invalid escape sequence: \\');
  return ok(out);
}

/** Splits on commas that are not escaped. */
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** The first operator found scanning left to right; "!=" and "==" win over "=" at a position. */
function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '=']) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.ParseSelector: terms are sorted as strings, as upstream does. */
export function parseFieldSelector(selector: string): Result<FieldSelector> {
  const parts = splitTerms(selector).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const terms: FieldTerm[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) return fail(`invalid selector: '${selector}'; can't understand '${part}'`);
    const value = unescapeValue(split.rhs);
    if (!value.ok) return value;
    terms.push({ field: split.lhs, operator: split.op === '!=' ? '!=' : '=', value: value.value });
  }
  return ok(new FieldSelector(terms));
}

// --- per-kind field labels -----------------------------------------------------------------

type Conversion = (label: string) => Result<string>;

const allowing =
  (labels: readonly string[], error: (label: string) => string, renames: Record<string, string> = {}): Conversion =>
  (label) => {
    if (Object.hasOwn(renames, label)) return ok(renames[label]!);
    return labels.includes(label) ? ok(label) : fail(error(label));
  };

const notSupported = (label: string): string => `field label not supported: ${label}`;

/** runtime.DefaultMetaV1FieldSelectorConversion: kinds without their own conversion. */
const defaultConversion = allowing(
  ['metadata.name', 'metadata.namespace'],
  (label) => `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
);

const eventFields = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.namespace',
  'metadata.name',
];

const conversions: Record<string, Conversion> = {
  '/Pod': allowing(
    [
      'metadata.name',
      'metadata.namespace',
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.nominatedNodeName',
    ],
    notSupported,
    // Old v1 clients send spec.host.
    { 'spec.host': 'spec.nodeName' },
  ),
  '/Node': allowing(['metadata.name', 'spec.unschedulable'], notSupported),
  '/ReplicationController': allowing(['metadata.name', 'metadata.namespace', 'status.replicas'], notSupported),
  '/Event': allowing(eventFields, notSupported),
  '/Namespace': allowing(['status.phase', 'metadata.name'], notSupported),
  '/Secret': allowing(['type', 'metadata.namespace', 'metadata.name'], notSupported),
  '/Service': allowing(['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type'], notSupported),
  'batch/Job': allowing(['metadata.name', 'metadata.namespace', 'status.successful'], (label) => `field label ${goQuote(label)} not supported for batchv1.Job`),
  'certificates.k8s.io/CertificateSigningRequest': allowing(['metadata.name', 'spec.signerName'], notSupported),
  // events.k8s.io shares the core Event storage: its field names map onto the core ones.
  'events.k8s.io/Event': allowing(['metadata.name', 'metadata.namespace', 'reason', 'type'], notSupported, {
    'regarding.kind': 'involvedObject.kind',
    'regarding.namespace': 'involvedObject.namespace',
    'regarding.name': 'involvedObject.name',
    'regarding.uid': 'involvedObject.uid',
    'regarding.apiVersion': 'involvedObject.apiVersion',
    'regarding.resourceVersion': 'involvedObject.resourceVersion',
    'regarding.fieldPath': 'involvedObject.fieldPath',
    reportingController: 'reportingComponent',
  }),
};

/**
 * The selector with each field label converted for the kind (Selector.Transform with the
 * scheme's ConvertFieldLabel); the error is what the API server returns as a BadRequest.
 */
export function convertFieldSelector(group: string, kind: string, selector: FieldSelector): Result<FieldSelector> {
  const convert = own(conversions, `${group}/${kind}`) ?? defaultConversion;
  const terms: FieldTerm[] = [];
  for (const t of selector.terms) {
    const field = convert(t.field);
    if (!field.ok) return field;
    terms.push({ ...t, field: field.value });
  }
  return ok(new FieldSelector(terms));
}

const get = (obj: unknown, path: string): unknown => {
  let cur = obj;
  for (const part of path.split('.')) cur = isObject(cur) ? own(cur, part) : undefined;
  return cur;
};
const str = (obj: unknown, path: string): string => {
  const v = get(obj, path);
  return typeof v === 'string' ? v : '';
};
const num = (obj: unknown, path: string): string => {
  const v = get(obj, path);
  return String(typeof v === 'number' ? v : 0);
};
const bool = (obj: unknown, path: string): string => String(get(obj, path) === true);

function podIP(pod: KubeObject): string {
  const ips = get(pod, 'status.podIPs');
  if (Array.isArray(ips) && ips.length > 0) return str(ips[0], 'ip');
  return str(pod, 'status.podIP');
}

type FieldSet = (obj: KubeObject) => Record<string, string>;

const kindFields: Record<string, FieldSet> = {
  '/Pod': (o) => ({
    'spec.nodeName': str(o, 'spec.nodeName'),
    'spec.restartPolicy': str(o, 'spec.restartPolicy'),
    'spec.schedulerName': str(o, 'spec.schedulerName'),
    'spec.serviceAccountName': str(o, 'spec.serviceAccountName'),
    'spec.hostNetwork': bool(o, 'spec.hostNetwork'),
    'status.phase': str(o, 'status.phase'),
    'status.podIP': podIP(o),
    'status.nominatedNodeName': str(o, 'status.nominatedNodeName'),
  }),
  '/Node': (o) => ({ 'spec.unschedulable': bool(o, 'spec.unschedulable') }),
  '/ReplicationController': (o) => ({ 'status.replicas': num(o, 'status.replicas') }),
  '/Event': (o) => ({
    'involvedObject.kind': str(o, 'involvedObject.kind'),
    'involvedObject.namespace': str(o, 'involvedObject.namespace'),
    'involvedObject.name': str(o, 'involvedObject.name'),
    'involvedObject.uid': str(o, 'involvedObject.uid'),
    'involvedObject.apiVersion': str(o, 'involvedObject.apiVersion'),
    'involvedObject.resourceVersion': str(o, 'involvedObject.resourceVersion'),
    'involvedObject.fieldPath': str(o, 'involvedObject.fieldPath'),
    reason: str(o, 'reason'),
    reportingComponent: str(o, 'reportingComponent'),
    source: str(o, 'source.component') || str(o, 'reportingComponent'),
    type: str(o, 'type'),
  }),
  'events.k8s.io/Event': (o) => ({
    'involvedObject.kind': str(o, 'regarding.kind'),
    'involvedObject.namespace': str(o, 'regarding.namespace'),
    'involvedObject.name': str(o, 'regarding.name'),
    'involvedObject.uid': str(o, 'regarding.uid'),
    'involvedObject.apiVersion': str(o, 'regarding.apiVersion'),
    'involvedObject.resourceVersion': str(o, 'regarding.resourceVersion'),
    'involvedObject.fieldPath': str(o, 'regarding.fieldPath'),
    reason: str(o, 'reason'),
    reportingComponent: str(o, 'reportingController'),
    source: str(o, 'deprecatedSource.component') || str(o, 'reportingController'),
    type: str(o, 'type'),
  }),
  '/Namespace': (o) => ({ 'status.phase': str(o, 'status.phase') }),
  '/Secret': (o) => ({ type: str(o, 'type') }),
  '/Service': (o) => ({ 'spec.clusterIP': str(o, 'spec.clusterIP'), 'spec.type': str(o, 'spec.type') }),
  'apps/ReplicaSet': (o) => ({ 'status.replicas': num(o, 'status.replicas') }),
  'batch/Job': (o) => ({ 'status.successful': num(o, 'status.succeeded') }),
  'certificates.k8s.io/CertificateSigningRequest': (o) => ({ 'spec.signerName': str(o, 'spec.signerName') }),
};

/**
 * The field set an object of the kind is matched against (its registry's GetAttrs), keyed by
 * the converted field labels; metadata.name and metadata.namespace are always present.
 */
export function fieldsForKind(group: string, kind: string, obj: KubeObject): Record<string, string> {
  const meta = obj.metadata ?? {};
  return {
    'metadata.name': typeof meta.name === 'string' ? meta.name : '',
    'metadata.namespace': typeof meta.namespace === 'string' ? meta.namespace : '',
    ...(own(kindFields, `${group}/${kind}`)?.(obj) ?? {}),
  };
}
