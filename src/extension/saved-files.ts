/** The saved cluster's files in the workspace storage: the snapshot and its trace (persistence.ts writes them, in the engine worker). */
export const SNAPSHOT_FILE = 'cluster.json';
export const TRACE_FILE = 'cluster.trace.jsonl';
