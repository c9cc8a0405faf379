/**
 * DefaultTolerationSeconds: pods tolerate the not-ready and unreachable NoExecute taints for
 * 300 seconds unless they say otherwise, so a node outage evicts them after five minutes. As
 * upstream, on updates too: an update (a server-side apply of a pod's atomic tolerations list)
 * that leaves them out gets them back instead of failing as a change to existing tolerations.
 */
import { isObject, type JsonObject } from '../../../api/types';
import { isPod, type AdmissionPlugin } from '../types';

export const DEFAULT_TOLERATION_SECONDS = 300;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

function tolerates(tolerations: JsonObject[], key: string): boolean {
  return tolerations.some(
    (t) => (t.key === key || t.key === undefined || t.key === '') && (t.effect === 'NoExecute' || t.effect === undefined || t.effect === ''),
  );
}

export const defaultTolerationSeconds: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  handles: (a) => (a.operation === 'CREATE' || a.operation === 'UPDATE') && isPod(a),
  admit(a) {
    if (!a.object) return;
    const spec = isObject(a.object.spec) ? a.object.spec : {};
    a.object.spec = spec;
    const tolerations = Array.isArray(spec.tolerations) ? spec.tolerations : [];
    const present = tolerations.filter(isObject);
    const added: JsonObject[] = [];
    for (const key of [NOT_READY, UNREACHABLE]) {
      if (!tolerates(present, key)) {
        added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS });
      }
    }
    if (added.length === 0) return;
    spec.tolerations = [...tolerations, ...added];
    return `added ${added.map((t) => t.key).join(' and ')} tolerations for ${DEFAULT_TOLERATION_SECONDS}s`;
  },
};
