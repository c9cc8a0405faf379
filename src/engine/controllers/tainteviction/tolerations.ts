/**
 * Which NoExecute taints a pod tolerates and for how long: every taint needs a toleration (the
 * first that matches it counts); the shortest tolerationSeconds among those used is how long the
 * pod may stay (0 or less: not at all), and without any tolerationSeconds it stays for good.
 */
import { toleratesTaint } from '../../component-helpers/scheduling/taints';
import type { Taint, Toleration } from '../util/types/node';

export function noExecuteTaints(taints: readonly Taint[] | null | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/** GetMatchingTolerations: whether all taints are tolerated, and the tolerations that do it. */
export function matchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[] | null | undefined): { allTolerated: boolean; used: Toleration[] } {
  if (taints.length === 0) return { allTolerated: true, used: [] };
  const used: Toleration[] = [];
  for (const taint of taints) {
    const match = (tolerations ?? []).find((t) => toleratesTaint(t, taint));
    if (!match) return { allTolerated: false, used: [] };
    used.push(match);
  }
  return { allTolerated: true, used };
}

/** getMinTolerationTime in ms: 0 with no tolerations used, -1 for "forever". */
export function minTolerationMs(used: readonly Toleration[]): number {
  if (used.length === 0) return 0;
  let min = Infinity;
  for (const t of used) {
    if (typeof t.tolerationSeconds !== 'number') continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}
