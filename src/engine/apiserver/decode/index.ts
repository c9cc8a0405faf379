/**
 * Turning request bodies and manifest files into objects, with kube-apiserver's and kubectl's
 * texts for everything that can be wrong with them.
 */
export { decodeObjectBody, decodeRequestBody, type BodyRequest, type DecodedBody, type FieldValidation, type ObjectBodyRequest } from './body';
export { parseManifest, positionOf, positions, type DuplicateKey, type ManifestDocument, type ManifestOptions, type ManifestProblem, type NodePosition } from './manifest';
export { unmarshal, type StrictIssue, type UnmarshalError, type UnmarshalOptions, type UnmarshalResult } from './unmarshal';
export { parseFieldPath, jsonPointer } from './field-path';
export type { SourceRange } from './line-index';
export type { SourceNode } from './source';
export { ETCD_MAX_REQUEST_BYTES, MAX_DEPTH, MAX_REQUEST_BODY_BYTES } from './limits';
