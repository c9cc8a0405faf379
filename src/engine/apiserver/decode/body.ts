/**
 * The decode step of kube-apiserver's create and update handlers: a request body (JSON or YAML)
 * becomes an object of the endpoint's kind, with the field validation the request asked for.
 *
 * - Strict: unknown and duplicate fields fail the request (400 BadRequest, "strict decoding
 *   error: unknown field ..."). Warn (the default): they come back as warnings and the object
 *   is decoded without them. Ignore: they are dropped silently.
 * - Type errors always fail: `Deployment in version "v1" cannot be handled as a Deployment:
 *   json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`.
 * - A YAML body is converted to JSON first (duplicate keys: the last wins; in Strict and Warn
 *   go-yaml's "key already set in map" is reported as well).
 */
import { goQuote } from '../../api/gofmt';
import { setOwn, table } from '../../api/own';
import { schemaForKind } from '../../api/openapi';
import { badRequestError, requestEntityTooLargeError, StatusError } from '../../api/status';
import { formatApiVersion, type GroupVersionKind, type JsonObject } from '../../api/types';
import { sourceNodeOf } from './from-object';
import { interpret, withDefaults } from './interpret';
import { parseJson } from './json-parse';
import { LineIndex } from './line-index';
import { MAX_DEPTH, MAX_NODES, MAX_REQUEST_BODY_BYTES } from './limits';
import type { ObjectNode, SourceEntry, SourceNode } from './source';
import { firstUnrepresentableNumber, goFloat64Error, toJsonValue } from './source';
import { unmarshal, type StrictIssue } from './unmarshal';
import { parseYamlDocuments, type YamlDuplicate } from './yaml-parse';
import { fail, ok, type Result } from '../../api/result';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface BodyRequest {
  body: string;
  /** The media type, without parameters. */
  contentType: 'application/json' | 'application/yaml';
  /** The kind the endpoint takes (the resource's, or a subresource's such as autoscaling/v1 Scale). */
  expected: GroupVersionKind;
  /** The fieldValidation query parameter; empty means Warn. */
  fieldValidation?: FieldValidation | '';
  /** Custom resources: decoded unstructured, then this prunes the object and returns the unknown field paths. */
  custom?: (obj: JsonObject) => string[];
}

export interface DecodedBody {
  object: JsonObject;
  /** Warning headers to send (Warn): `unknown field "spec.foo"`. */
  warnings: string[];
  /** Unknown and duplicate fields with their paths, whatever the mode (for editor diagnostics). */
  strict: StrictIssue[];
}

/** The scheme kube-apiserver registers built-in types in, as its errors name it. */
const SCHEME = 'pkg/api/legacyscheme/scheme.go:30';

/** The internal API package each group's objects convert to (events.k8s.io shares core's Event). */
const INTERNAL_PACKAGES = table<string>({
  '': 'core',
  'events.k8s.io': 'core',
  'discovery.k8s.io': 'discovery',
  'networking.k8s.io': 'networking',
  'rbac.authorization.k8s.io': 'rbac',
  'coordination.k8s.io': 'coordination',
  'scheduling.k8s.io': 'scheduling',
  'storage.k8s.io': 'storage',
  'admissionregistration.k8s.io': 'admissionregistration',
  'apiextensions.k8s.io': 'apiextensions',
  'authentication.k8s.io': 'authentication',
  'authorization.k8s.io': 'authorization',
});

/** An in-process body: decoded as its JSON text would be. */
export interface ObjectBodyRequest {
  object: unknown;
  expected: GroupVersionKind;
  fieldValidation?: FieldValidation | '';
  custom?: (obj: JsonObject) => string[];
}

export function decodeRequestBody(req: BodyRequest): DecodedBody | StatusError {
  if (Buffer.byteLength(req.body, 'utf8') > MAX_REQUEST_BODY_BYTES) {
    return requestEntityTooLargeError(`limit is ${MAX_REQUEST_BODY_BYTES}`);
  }
  const parsed = req.contentType === 'application/yaml' ? yamlBody(req.body) : jsonBody(req.body);
  return decodeParsed(parsed, req, () => req.body);
}

/**
 * decodeRequestBody({ body: JSON.stringify(object) }), with the same answer, mostly without
 * writing and parsing the text (see from-object.ts).
 */
export function decodeObjectBody(req: ObjectBodyRequest): DecodedBody | StatusError {
  const node = sourceNodeOf(req.object, MAX_DEPTH, MAX_REQUEST_BODY_BYTES);
  if (!node) return decodeRequestBody({ body: JSON.stringify(req.object), contentType: 'application/json', expected: req.expected, fieldValidation: req.fieldValidation, custom: req.custom });
  return decodeParsed(ok({ node, duplicates: '' }), req, () => JSON.stringify(req.object));
}

function decodeParsed(parsed: Parsed, req: Pick<BodyRequest, 'expected' | 'fieldValidation' | 'custom'>, text: () => string): DecodedBody | StatusError {
  const mode: FieldValidation = req.fieldValidation || 'Warn';
  const strictMode = mode !== 'Ignore';
  const unrecognized = (message: string) =>
    badRequestError(`the object provided is unrecognized (must be of type ${req.expected.kind}): ${message} (${summarizeData(text(), 30)})`);

  if (!parsed.ok) return unrecognized(parsed.error);
  const { node, duplicates } = parsed.value;
  const found = interpret(node);
  if (!found.ok) return unrecognized(found.error);
  const actual = withDefaults(found.value, req.expected);
  const cannotHandle = (message: string) =>
    badRequestError(`${actual.kind} in version ${goQuote(actual.version)} cannot be handled as a ${req.expected.kind}: ${message}`);

  const sameGroupVersion = actual.group === req.expected.group && actual.version === req.expected.version;
  if (req.custom) {
    if (!sameGroupVersion) return versionMismatch(actual, req.expected);
    return decodeUnstructured(parsed.value, req.custom, mode, actual, cannotHandle);
  }
  const schema = schemaForKind(actual.group, actual.version, actual.kind);
  if (!schema) {
    if (!sameGroupVersion && isBuiltinGroup(actual.group)) return versionMismatch(actual, req.expected);
    return cannotHandle(`no kind ${goQuote(actual.kind)} is registered for version ${goQuote(formatApiVersion(actual.group, actual.version))} in scheme ${goQuote(SCHEME)}`);
  }
  const result = unmarshal(node, schema, { disallowUnknownFields: strictMode, disallowDuplicateFields: strictMode });
  if (result.error) return cannotHandle(result.error.message);
  if (!sameGroupVersion) return versionMismatch(actual, req.expected);
  if (actual.kind !== req.expected.kind) {
    const from = `${actual.version}.${actual.kind}`;
    const to = `${INTERNAL_PACKAGES[req.expected.group] ?? req.expected.group}.${req.expected.kind}`;
    return cannotHandle(`converting (${from}) to (${to}): unknown conversion`);
  }

  const strictErrors: string[] = [];
  if (strictMode && duplicates.length > 0) strictErrors.push(duplicates);
  strictErrors.push(...result.strict.map((s) => s.message));
  if (mode === 'Strict' && strictErrors.length > 0) return cannotHandle(`strict decoding error: ${strictErrors.join(', ')}`);
  const warnings = mode === 'Warn' ? strictErrors.flatMap(yamlWarnings) : [];

  const value = result.value !== null && typeof result.value === 'object' && !Array.isArray(result.value) ? result.value : {};
  const object: JsonObject = { apiVersion: formatApiVersion(actual.group, actual.version), kind: actual.kind };
  for (const [k, v] of Object.entries(value)) if (k !== 'apiVersion' && k !== 'kind') setOwn(object, k, v);
  return { object, warnings, strict: result.strict };
}

/**
 * A custom resource: JSON as it is (the kind is checked by validation, not here), pruned by its
 * schema, with the pruned fields as strict decoding errors or warnings like unknown fields of
 * built-in kinds.
 */
function decodeUnstructured(
  parsed: { node: SourceNode; duplicates: string },
  prune: (obj: JsonObject) => string[],
  mode: FieldValidation,
  actual: GroupVersionKind,
  cannotHandle: (message: string) => StatusError,
): DecodedBody | StatusError {
  // Unstructured objects are map[string]interface{}: a number beyond float64 does not decode.
  const huge = firstUnrepresentableNumber(parsed.node);
  if (huge) return cannotHandle(goFloat64Error(huge));
  const value = toJsonValue(parsed.node);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return cannotHandle('Object is not a map');
  const unknown = prune(value);
  const strict: StrictIssue[] = unknown.map((path) => ({ kind: 'unknown', path, message: `unknown field ${goQuote(path)}` }));
  const strictErrors = mode === 'Ignore' ? [] : [...(parsed.duplicates ? [parsed.duplicates] : []), ...strict.map((s) => s.message)];
  if (mode === 'Strict' && strictErrors.length > 0) return cannotHandle(`strict decoding error: ${strictErrors.join(', ')}`);
  const object: JsonObject = { apiVersion: formatApiVersion(actual.group, actual.version), kind: actual.kind };
  for (const [k, v] of Object.entries(value)) if (k !== 'apiVersion' && k !== 'kind') setOwn(object, k, v);
  return { object, warnings: mode === 'Warn' ? strictErrors.flatMap(yamlWarnings) : [], strict };
}

type Parsed = Result<{ node: SourceNode; duplicates: string }>;

function jsonBody(body: string): Parsed {
  const parsed = parseJson(body, MAX_DEPTH);
  if (!parsed.ok) return fail(`couldn't get version/kind; json parse error: ${parsed.error.message}`);
  return ok({ node: parsed.value.node, duplicates: '' });
}

/** sigs.k8s.io/yaml's YAMLToJSON: the first document, keys sorted, the last of repeated keys. */
function yamlBody(body: string): Parsed {
  const lines = new LineIndex(body);
  const doc = parseYamlDocuments(body, { maxDepth: MAX_DEPTH, maxNodes: MAX_NODES })[0];
  const problem = doc?.errors[0];
  if (problem) {
    const message = /^(yaml|json): /.test(problem.message) ? problem.message : `yaml: line ${lines.position(problem.start).line}: ${problem.message}`;
    return fail(message);
  }
  const node: SourceNode = doc?.node ? asGoMap(doc.node) : { kind: 'null', start: 0, end: 0 };
  return ok({ node, duplicates: duplicateKeysError(doc?.duplicates ?? [], lines) });
}

/** go-yaml's strict errors for repeated keys, or '' when there are none. */
function duplicateKeysError(duplicates: YamlDuplicate[], lines: LineIndex): string {
  if (duplicates.length === 0) return '';
  const entries = duplicates.map((d) => `line ${lines.position(d.valueStart).line}: key ${d.goKey} already set in map`);
  return `yaml: unmarshal errors:\n  ${entries.join('\n  ')}`;
}

/** What a YAML mapping becomes on its way to JSON: a Go map, so sorted keys and the last value of each. */
function asGoMap(node: SourceNode): SourceNode {
  if (node.kind === 'array') return { ...node, items: node.items.map(asGoMap) };
  if (node.kind !== 'object') return node;
  const last = new Map<string, SourceEntry>();
  for (const e of node.entries) last.set(e.key, { ...e, value: asGoMap(e.value) });
  const entries = [...last.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { ...node, entries } satisfies ObjectNode;
}

/** kube-apiserver's parseYAMLWarnings: go-yaml's multi-line error becomes one warning per line. */
function yamlWarnings(message: string): string[] {
  for (const prefix of ['yaml: unmarshal errors:\n', 'error converting YAML to JSON: yaml: unmarshal errors:\n']) {
    if (message.startsWith(prefix)) return message.slice(prefix.length).split('\n').map((s) => s.trim());
  }
  return [message];
}

function versionMismatch(actual: GroupVersionKind, expected: GroupVersionKind): StatusError {
  return badRequestError(
    `the API version in the data (${formatApiVersion(actual.group, actual.version)}) does not match the expected API version (${formatApiVersion(expected.group, expected.version)})`,
  );
}

/** kube-apiserver's scheme knows every version of the built-in groups, served or not. */
function isBuiltinGroup(group: string): boolean {
  return group === '' || group === 'apps' || group === 'batch' || group === 'autoscaling' || group === 'policy' || group === 'extensions' || group.endsWith('.k8s.io');
}

/** summarizeData: the start of the body, as text if it is a JSON object, else in hex. */
function summarizeData(body: string, max: number): string {
  const data = Buffer.from(body, 'utf8');
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, max);
  const more = data.length > max ? ' ...' : '';
  return data[0] === 0x7b ? head.toString('utf8') + more : head.toString('hex') + more;
}

