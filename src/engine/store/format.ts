import { utf8Length } from './keys';
import { StoreErrors, type WatchResponse } from './types';

/**
 * A watch response as log lines, one per event, for the CLI and traces:
 *   rev 7  PUT     /registry/pods/default/web-1  (created at 7, version 1, 512 B)
 *   rev 9  DELETE  /registry/pods/default/web-1
 */
export function formatRevisionLog(response: WatchResponse): string[] {
  if (response.canceled) {
    const reason = response.compactRevision !== undefined ? `${StoreErrors.compacted} (compacted at ${response.compactRevision})` : response.cancelReason ?? 'canceled';
    return [`watch canceled: ${reason}`];
  }
  if (response.events.length === 0) return [`rev ${response.header.revision}  (progress)`];
  return response.events.map(({ type, kv }) =>
    type === 'DELETE'
      ? `rev ${kv.modRevision}  DELETE  ${kv.key}`
      : `rev ${kv.modRevision}  PUT     ${kv.key}  (created at ${kv.createRevision}, version ${kv.version}, ${utf8Length(kv.value)} B)`,
  );
}
