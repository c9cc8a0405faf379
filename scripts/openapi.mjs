// The vendored Kubernetes 1.35 OpenAPI v3 documents, as the generators read them
// (scripts/gen-api-types.mjs, scripts/gen-registry.mjs): where they are, which group-versions
// kubesim serves, and how one is read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const root = join(import.meta.dirname, '..');
export const schemas = join(root, 'schemas', 'kubernetes', '1.35');
const docs = join(schemas, 'openapi', 'v3');

/** The group-versions kubesim serves, as their discovery paths. */
export const GROUP_VERSIONS = [
  'api/v1',
  'apis/admissionregistration.k8s.io/v1',
  'apis/apiextensions.k8s.io/v1',
  'apis/apiregistration.k8s.io/v1',
  'apis/apps/v1',
  'apis/authentication.k8s.io/v1',
  'apis/authorization.k8s.io/v1',
  'apis/autoscaling/v1',
  'apis/autoscaling/v2',
  'apis/batch/v1',
  'apis/coordination.k8s.io/v1',
  'apis/discovery.k8s.io/v1',
  'apis/events.k8s.io/v1',
  'apis/networking.k8s.io/v1',
  'apis/policy/v1',
  'apis/rbac.authorization.k8s.io/v1',
  'apis/scheduling.k8s.io/v1',
  'apis/storage.k8s.io/v1',
];

/** One group-version's OpenAPI v3 document ("apis/apps/v1"). */
export function readDocument(gvPath) {
  return readGzipJson(join(docs, `${gvPath}.json.gz`));
}

/** A gzipped JSON file of schemas/kubernetes/1.35 ("go-json.json.gz"). */
export function readSchemaFile(name) {
  return readGzipJson(join(schemas, name));
}

function readGzipJson(path) {
  return JSON.parse(gunzipSync(readFileSync(path)).toString('utf8'));
}

/** Code-unit order, as Go's sort.Strings. */
export const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
