/**
 * Turning a request body into the object a handler works on: decode it as the endpoint's kind
 * with the request's field validation (decode/), pass its warnings on, and default it, recording
 * the decode stage.
 */
import { invalid, Path } from '../api/field';
import { goFloat, goJson } from '../api/gofmt';
import { badRequestError, invalidError, requestEntityTooLargeError, StatusError } from '../api/status';
import type { GroupVersionKind, JsonObject, JsonValue, KubeObject } from '../api/types';
import type { RequestContext } from './context';
import { applySchemaDefaults } from './customresources/defaulting';
import { pruneCustomResource } from './customresources/prune';
import { decodeObjectBody, decodeRequestBody } from './decode/body';
import { parseJson } from './decode/json-parse';
import { MAX_DEPTH, MAX_NODES, MAX_REQUEST_BODY_BYTES } from './decode/limits';
import { firstUnrepresentableNumber, goFloat64Error, toJsonValue } from './decode/source';
import { parseYamlDocuments } from './decode/yaml-parse';
import { applyDefaults } from './defaults/apply';
import type { RequestBody } from './request';

/** The body's JSON value (JSON or YAML text parsed; objects as given), for patches. */
export function bodyValue(body: RequestBody | undefined): JsonValue {
  if (!body) return null;
  if ('object' in body) return structuredClone(body.object) as JsonValue;
  if (body.text.length > MAX_REQUEST_BODY_BYTES) throw requestEntityTooLargeError(`limit is ${MAX_REQUEST_BODY_BYTES}`);
  if (body.contentType === 'application/yaml') {
    const doc = parseYamlDocuments(body.text, { maxDepth: MAX_DEPTH, maxNodes: MAX_NODES })[0];
    const problem = doc?.errors[0];
    if (problem) throw badRequestError(problem.message);
    return doc?.node ? toJsonValue(doc.node) : null;
  }
  const parsed = parseJson(body.text, MAX_DEPTH);
  if (!parsed.ok) throw badRequestError(parsed.error.message);
  // Patches are read into interface{} values (strategic merge patch) or kept as text (JSON and
  // merge patches, whose result then fails to decode): either way a number beyond float64 fails.
  const { node } = parsed.value;
  const huge = firstUnrepresentableNumber(node);
  if (huge) throw badRequestError(goFloat64Error(huge));
  return toJsonValue(node);
}

type Encoded = { text: string; contentType: 'application/json' | 'application/yaml' } | { object: unknown };

/** Decodes a body (text, or an object as its JSON text) as an object of the expected kind and defaults it. */
function decodeEncoded(ctx: RequestContext, body: Encoded, expected: GroupVersionKind, rewrap: (err: StatusError) => StatusError = (err) => err): KubeObject {
  const fieldValidation = ctx.options.fieldValidation ?? '';
  const crd = ctx.server.customResources.forKind(expected);
  // A custom resource is pruned by its schema and defaulted from it, as the CRD's codec does.
  const custom = crd && ((obj: JsonObject) => {
    const unknown = pruneCustomResource(obj, crd.schema);
    applySchemaDefaults(obj, crd.schema);
    return unknown;
  });
  const decoded =
    'object' in body
      ? decodeObjectBody({ object: body.object, expected, fieldValidation, custom })
      : decodeRequestBody({ body: body.text, contentType: body.contentType, expected, fieldValidation, custom });
  if (decoded instanceof StatusError) {
    const err = rewrap(decoded);
    ctx.stage({ stage: 'decode', verdict: 'rejected', detail: err.message });
    throw err;
  }
  for (const w of decoded.warnings) ctx.warn(w);
  const obj = decoded.object as KubeObject;
  if (typeof obj.metadata !== 'object' || obj.metadata === null) obj.metadata = {};
  applyDefaults(obj);
  const unknown = decoded.strict.length;
  ctx.stage({
    stage: 'decode',
    verdict: 'passed',
    rule: `fieldValidation=${ctx.options.fieldValidation ?? 'Warn'}`,
    detail: unknown > 0 ? `${obj.kind} ${obj.apiVersion}; ${decoded.strict.map((s) => s.message).join(', ')}` : `${obj.kind} ${obj.apiVersion}`,
  });
  return obj;
}

export function decodeBody(ctx: RequestContext, expected: GroupVersionKind): KubeObject {
  const body = ctx.request.body;
  if (!body) return decodeEncoded(ctx, { text: '', contentType: 'application/json' }, expected);
  if ('object' in body) return decodeEncoded(ctx, { object: body.object }, expected);
  return decodeEncoded(ctx, { text: body.text, contentType: body.contentType ?? 'application/json' }, expected);
}

/** Decodes a computed JSON value (an apply result) as an object of the expected kind. */
export function decodeAs(ctx: RequestContext, value: JsonValue, expected: GroupVersionKind): KubeObject {
  return decodeEncoded(ctx, { object: value }, expected);
}

/**
 * Decodes the result of a JSON, merge or strategic merge patch. What does not decode is the
 * patch handler's quirky 422 (an Invalid error with no kind and no name): the patched object
 * (JSON patches) or the patch (%+v of a strategic merge patch's map) as the bad value of "patch".
 */
export function decodePatched(ctx: RequestContext, patched: JsonValue, patch: JsonValue, strategic: boolean, expected: GroupVersionKind): KubeObject {
  return decodeEncoded(ctx, { object: patched }, expected, (err) => {
    const reason = decodeReason(err.message);
    if (err.code !== 400 || reason === undefined) return err;
    const badValue = strategic ? goPrintValue(patch) : goJson(patched);
    return invalidError({ group: '', name: '' }, '', [invalid(Path.root('patch'), badValue, reason)]);
  });
}

/** The decoder's own error inside "X in version "v" cannot be handled as a X: <error>". */
function decodeReason(message: string): string | undefined {
  const m = /cannot be handled as a [^:]+: (.*)$/s.exec(message);
  return m ? m[1] : undefined;
}

/** Go's %+v of a decoded JSON value: map[k:v ...] with sorted keys, [a b] for lists. */
function goPrintValue(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goPrintValue).join(' ')}]`;
  const keys = Object.keys(v)
    .filter((k) => v[k] !== undefined)
    .sort();
  return `map[${keys.map((k) => `${k}:${goPrintValue(v[k]!)}`).join(' ')}]`;
}
