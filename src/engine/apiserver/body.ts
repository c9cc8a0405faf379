/**
 * Turning a request body into the object a handler works on: decode (with the request's field
 * validation), check it is the kind the endpoint serves, and default it, recording the decode
 * stage. Sizes over kube-apiserver's 3 MiB body limit are refused before anything is parsed.
 */
import { parse as parseYaml } from 'yaml';
import { badRequestError, requestEntityTooLargeError } from '../api/status';
import { isObject, parseApiVersion, type JsonValue, type KubeObject } from '../api/types';
import type { RequestContext } from './context';
import { applyDefaults } from './defaults/apply';
import type { RequestBody } from './request';
import { apiVersionOf } from './resources';

/** --max-request-bytes of kube-apiserver (3 MiB). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

export interface ExpectedKind {
  group: string;
  version: string;
  kind: string;
}

/** The body's JSON value, parsed if it came as text. */
export function bodyValue(body: RequestBody | undefined): JsonValue {
  if (!body) throw badRequestError('the body of the request was empty');
  if ('object' in body) return structuredClone(body.object) as JsonValue;
  if (body.text.length > MAX_REQUEST_BODY_BYTES) throw requestEntityTooLargeError(`limit is ${MAX_REQUEST_BODY_BYTES}`);
  try {
    return (body.contentType === 'application/yaml' ? parseYaml(body.text, { maxAliasCount: 100 }) : JSON.parse(body.text)) as JsonValue;
  } catch (err) {
    throw badRequestError(err instanceof Error ? err.message : String(err));
  }
}

/** Decodes a JSON value as an object of the expected kind and defaults it. */
export function decodeAs(ctx: RequestContext, value: JsonValue, expected: ExpectedKind): KubeObject {
  if (!isObject(value)) throw badRequestError(`Object 'Kind' is missing in '${JSON.stringify(value)}'`);
  const obj = value as KubeObject;
  if (typeof obj.apiVersion !== 'string' || obj.apiVersion === '') obj.apiVersion = apiVersionOf(expected);
  if (typeof obj.kind !== 'string' || obj.kind === '') obj.kind = expected.kind;
  const gv = parseApiVersion(obj.apiVersion);
  if (gv.group !== expected.group || gv.version !== expected.version) {
    throw badRequestError(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${apiVersionOf(expected)})`);
  }
  if (!isObject(obj.metadata)) obj.metadata = {};
  applyDefaults(obj);
  ctx.stage({ stage: 'decode', verdict: 'passed', detail: `${obj.kind} ${obj.apiVersion}` });
  return obj;
}

export function decodeBody(ctx: RequestContext, expected: ExpectedKind): KubeObject {
  return decodeAs(ctx, bodyValue(ctx.request.body), expected);
}
