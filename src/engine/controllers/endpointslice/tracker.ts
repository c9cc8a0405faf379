/**
 * The EndpointSliceTracker: the generation of every slice this controller last wrote, and the
 * slices it expects to disappear. It tells the informer's own echoes of those writes (no sync
 * needed) from changes made by others (sync), and detects a cache that has not caught up with
 * the controller's writes yet (the sync fails and is retried).
 */
import { LABEL_SERVICE_NAME, type EndpointSlice, type Service } from '../util/types/endpoint';

const DELETION_EXPECTED = -1;

function serviceKeyOf(slice: EndpointSlice): string {
  return `${slice.metadata.namespace ?? ''}/${slice.metadata.labels?.[LABEL_SERVICE_NAME] ?? ''}`;
}

export class EndpointSliceTracker {
  private readonly byService = new Map<string, Map<string, number>>();

  private generations(slice: EndpointSlice, create: boolean): Map<string, number> | undefined {
    const key = serviceKeyOf(slice);
    let gens = this.byService.get(key);
    if (!gens && create) this.byService.set(key, (gens = new Map()));
    return gens;
  }

  has(slice: EndpointSlice): boolean {
    return this.generations(slice, false)?.has(slice.metadata.uid ?? '') ?? false;
  }

  /** A slice change this controller did not make (or a newer generation than it wrote). */
  shouldSync(slice: EndpointSlice): boolean {
    const g = this.generations(slice, false)?.get(slice.metadata.uid ?? '');
    return g === undefined || (slice.metadata.generation ?? 0) > g;
  }

  /** The cache is behind the controller's writes for this Service. */
  staleSlices(service: Service, slices: readonly EndpointSlice[]): boolean {
    const gens = this.byService.get(`${service.metadata.namespace ?? ''}/${service.metadata.name ?? ''}`);
    if (!gens) return false;
    const provided = new Set<string>();
    for (const slice of slices) {
      const uid = slice.metadata.uid ?? '';
      provided.add(uid);
      const g = gens.get(uid);
      if (g !== undefined && (g === DELETION_EXPECTED || g > (slice.metadata.generation ?? 0))) return true;
    }
    for (const [uid, g] of gens) if (g !== DELETION_EXPECTED && !provided.has(uid)) return true;
    return false;
  }

  update(slice: EndpointSlice): void {
    this.generations(slice, true)!.set(slice.metadata.uid ?? '', slice.metadata.generation ?? 0);
  }

  expectDeletion(slice: EndpointSlice): void {
    this.generations(slice, true)!.set(slice.metadata.uid ?? '', DELETION_EXPECTED);
  }

  /** Forgets a deleted slice; false when the deletion was not this controller's doing. */
  handleDeletion(slice: EndpointSlice): boolean {
    const gens = this.generations(slice, false);
    if (!gens) return true;
    const uid = slice.metadata.uid ?? '';
    const g = gens.get(uid);
    gens.delete(uid);
    return g === undefined || g === DELETION_EXPECTED;
  }

  deleteService(namespace: string, name: string): void {
    this.byService.delete(`${namespace}/${name}`);
  }
}
