/**
 * The vendored OpenAPI v3 documents, one per group-version path ("api/v1", "apis/apps/v1"), as
 * kube-apiserver serves them under /openapi/v3/<path>. Each is read and unpacked on first use
 * only: the HTTP facade serves the raw bytes, the schema compiler parses them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { kubernetesDataDir } from './data-dir';
import type { OpenApiDocument } from './document-types';

interface IndexEntry {
  sha512: string;
  bytes: number;
}

/** Where a group/version/kind is described: its definition and the document that holds it. */
export interface KindLocation {
  definition: string;
  path: string;
}

let index: Map<string, IndexEntry> | undefined;
let kinds: Map<string, KindLocation> | undefined;
const raw = new Map<string, Uint8Array>();
const parsed = new Map<string, OpenApiDocument>();

function openapiIndex(): Map<string, IndexEntry> {
  if (!index) {
    const file = join(kubernetesDataDir(), 'openapi', 'v3', 'index.json');
    index = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, IndexEntry>));
  }
  return index;
}

/** Subresource kinds (autoscaling/v1 Scale) live in the documents of the resources serving them. */
export function kindLocation(group: string, version: string, kind: string): KindLocation | undefined {
  if (!kinds) {
    const file = join(kubernetesDataDir(), 'openapi', 'v3', 'kinds.json');
    kinds = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, KindLocation>));
  }
  return kinds.get(`${group}/${version}/${kind}`);
}

/** The group-version paths there are documents for, in the order of the index (sorted). */
export function listOpenApiPaths(): string[] {
  return [...openapiIndex().keys()];
}

/** The uppercase hex SHA-512 of a document, as /openapi/v3 lists it in `?hash=`. */
export function openapiDocumentHash(groupVersionPath: string): string | undefined {
  return openapiIndex().get(groupVersionPath)?.sha512;
}

/** The document's bytes exactly as vendored (what GET /openapi/v3/<path> returns). */
export function openapiDocument(groupVersionPath: string): Uint8Array | undefined {
  const cached = raw.get(groupVersionPath);
  if (cached) return cached;
  if (!openapiIndex().has(groupVersionPath)) return undefined;
  const file = join(kubernetesDataDir(), 'openapi', 'v3', `${groupVersionPath}.json.gz`);
  const bytes = new Uint8Array(gunzipSync(readFileSync(file)));
  raw.set(groupVersionPath, bytes);
  return bytes;
}

/** The parsed document; shared, so callers must not modify it. */
export function openapiDocumentJson(groupVersionPath: string): OpenApiDocument | undefined {
  const cached = parsed.get(groupVersionPath);
  if (cached) return cached;
  const bytes = openapiDocument(groupVersionPath);
  if (!bytes) return undefined;
  const doc = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as OpenApiDocument;
  parsed.set(groupVersionPath, doc);
  return doc;
}

/** "apps", "v1" -> "apis/apps/v1"; the core group -> "api/v1". */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}
