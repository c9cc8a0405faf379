/**
 * Writing responses the way kube-apiserver's response writers do: JSON bodies, Status objects
 * for failures, `Warning: 299 - "..."` headers, an Audit-Id, and gzip for large bodies when the
 * client accepts it.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { StatusError, type Status } from '../engine/api/status';
import { encodeJson, statusBody } from './json';

/** responsewriters' defaultGzipThresholdBytes: smaller bodies are not worth compressing. */
const GZIP_THRESHOLD_BYTES = 128 * 1024;

/** The Warning header value: code 299, agent "-", the text as a quoted string. */
export function warningHeader(text: string): string {
  return `299 - "${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function baseHeaders(res: ServerResponse, warnings: readonly string[] = []): void {
  res.setHeader('Audit-Id', randomUUID());
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-cache, private');
  if (warnings.length > 0) res.setHeader('Warning', warnings.map(warningHeader));
}

function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  return typeof header === 'string' && header.split(',').some((e) => e.trim().split(';')[0] === 'gzip');
}

export function writeBody(req: IncomingMessage, res: ServerResponse, code: number, contentType: string, body: string | Uint8Array, warnings: readonly string[] = []): void {
  baseHeaders(res, warnings);
  res.setHeader('Content-Type', contentType);
  let bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (bytes.byteLength > GZIP_THRESHOLD_BYTES && acceptsGzip(req)) {
    bytes = gzipSync(bytes);
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Vary', 'Accept-Encoding');
  }
  res.setHeader('Content-Length', bytes.byteLength);
  res.writeHead(code);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

export function writeJson(req: IncomingMessage, res: ServerResponse, code: number, value: unknown, warnings: readonly string[] = [], contentType = 'application/json'): void {
  const isStatus = typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
  writeBody(req, res, code, contentType, encodeJson(isStatus ? statusBody(value as Status) : value), warnings);
}

/** An engine response that failed: its Status, or the body the server writes as it is (503 text). */
export function writeFailure(req: IncomingMessage, res: ServerResponse, response: { code: number; body: unknown; warnings: readonly string[]; raw?: { contentType: string; text: string } }): void {
  if (!response.raw) return writeJson(req, res, response.code, response.body, response.warnings);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  writeBody(req, res, response.code, response.raw.contentType, response.raw.text, response.warnings);
}

export function writeStatus(req: IncomingMessage, res: ServerResponse, err: StatusError, warnings: readonly string[] = []): void {
  writeJson(req, res, err.code, err.status, warnings);
}

/** A StatusError for a failure that is not one already (a bug): 500 InternalError. */
export function asStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new StatusError({ code: 500, reason: 'InternalError', message: `Internal error occurred: ${message}`, details: { causes: [{ message }] } });
}

/** What kube-apiserver answers for a path it does not serve. */
export function notFoundError(): StatusError {
  return new StatusError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} });
}
