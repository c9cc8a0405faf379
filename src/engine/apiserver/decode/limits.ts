/** Bounds on what a request body or manifest may be, and kube-apiserver's and etcd's own. */

/** kube-apiserver's --max-request-bytes default for write bodies (3 MiB): larger ones get 413. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** etcd's --max-request-bytes default (1.5 MiB): a larger object cannot be stored. */
export const ETCD_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;

/**
 * Nesting depth of objects and lists. Go's JSON scanner allows 10000; kubesim stops earlier so
 * that no JavaScript stack can overflow on the way (no Kubernetes object comes near this).
 */
export const MAX_DEPTH = 256;

/** Values after YAML alias expansion: beyond this a document is an alias bomb. */
export const MAX_NODES = 1_000_000;

/** A manifest file larger than this is not read (many request bodies' worth). */
export const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;
