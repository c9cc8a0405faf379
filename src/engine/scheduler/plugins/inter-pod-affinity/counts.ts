/**
 * topologyToMatchedTermCount: how many matching pods (or term matches) each topology domain
 * (topologyKey=value) holds. Entries that drop to zero are removed, so "any entry" means "some
 * pod matches somewhere".
 */
import type { Labels } from '../../../api/labels';
import type { Pod } from '../../api';
import type { AffinityTerm } from '../../cache/pod-info';
import { podMatchesAllAffinityTerms } from '../../cache/pod-info';
import { own } from '../../../api/own';

export const pairKey = (key: string, value: string): string => `${key}\u0000${value}`;

export class TopologyCounts {
  readonly map = new Map<string, number>();

  get size(): number {
    return this.map.size;
  }

  get(key: string, value: string): number {
    return this.map.get(pairKey(key, value)) ?? 0;
  }

  update(nodeLabels: Labels, topologyKey: string, delta: number): void {
    if (!Object.hasOwn(nodeLabels, topologyKey)) return;
    const k = pairKey(topologyKey, own(nodeLabels, topologyKey)!);
    const n = (this.map.get(k) ?? 0) + delta;
    if (n === 0) this.map.delete(k);
    else this.map.set(k, n);
  }

  /** Counts every term's domain when `pod` matches all the terms. */
  updateWithAffinityTerms(terms: readonly AffinityTerm[], pod: Pod, nodeLabels: Labels, delta: number): void {
    if (!podMatchesAllAffinityTerms(terms, pod)) return;
    for (const t of terms) this.update(nodeLabels, t.topologyKey, delta);
  }

  /** Counts the domain of each term `pod` matches. */
  updateWithAntiAffinityTerms(terms: readonly AffinityTerm[], pod: Pod, nsLabels: Labels, nodeLabels: Labels, delta: number): void {
    for (const t of terms) if (t.matches(pod, nsLabels)) this.update(nodeLabels, t.topologyKey, delta);
  }

  clone(): TopologyCounts {
    const c = new TopologyCounts();
    for (const [k, v] of this.map) c.map.set(k, v);
    return c;
  }
}
