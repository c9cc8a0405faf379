/**
 * Request bodies: read up to kube-apiserver's 3 MiB limit (one byte more tells a larger body
 * apart; the rest is drained, not kept) and typed by Content-Type for the engine's decoder.
 */
import type { IncomingMessage } from 'node:http';
import { MAX_REQUEST_BODY_BYTES } from '../engine/apiserver/decode';
import { PATCH_CONTENT_TYPES, type PatchType } from '../engine/apiserver/request';
import { StatusError } from '../engine/api/status';
import { PROTOBUF_CONTENT_TYPE } from './protobuf/decode';
import { table } from '../engine/api/own';

export interface RawBody {
  bytes: Buffer;
  /** More than MAX_REQUEST_BODY_BYTES were sent (bytes holds the first limit + 1). */
  tooLarge: boolean;
}

export function readBody(req: IncomingMessage): Promise<RawBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = MAX_REQUEST_BODY_BYTES + 1;
    req.on('data', (chunk: Buffer) => {
      if (size < keep) chunks.push(chunk.subarray(0, keep - size));
      size += chunk.length;
    });
    req.on('end', () => resolve({ bytes: Buffer.concat(chunks), tooLarge: size > MAX_REQUEST_BODY_BYTES }));
    req.on('error', reject);
  });
}

/** The media type without parameters (";charset=utf-8"), lowercased. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

export type WriteType = 'application/json' | 'application/yaml' | typeof PROTOBUF_CONTENT_TYPE;

/** What POST and PUT accept; everything else is 415. */
const WRITE_TYPES = table<WriteType>({
  'application/json': 'application/json',
  'application/yaml': 'application/yaml',
  [PROTOBUF_CONTENT_TYPE]: PROTOBUF_CONTENT_TYPE,
});

function unsupportedMediaType(accepted: string[]): StatusError {
  return new StatusError({
    code: 415,
    reason: 'UnsupportedMediaType',
    message: `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  });
}

/** The content type of a create, update or delete body (JSON when none is given). */
export function writeContentType(header: string | undefined): WriteType | StatusError {
  const type = mediaType(header);
  if (type === '') return 'application/json';
  return WRITE_TYPES[type] ?? unsupportedMediaType(Object.keys(WRITE_TYPES));
}

/** The patch type of a PATCH body, by the four content types kube-apiserver accepts. */
export function patchTypeOf(header: string | undefined): PatchType | StatusError {
  const type = mediaType(header);
  return Object.hasOwn(PATCH_CONTENT_TYPES, type) ? PATCH_CONTENT_TYPES[type]! : unsupportedMediaType(Object.keys(PATCH_CONTENT_TYPES));
}
