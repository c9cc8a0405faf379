/**
 * NodeResourcesFit's rejections in words, with the amounts its record keeps (upstream's
 * InsufficientResource): "Insufficient cpu: 64 requested, 3.2 free of 4". The map's verdicts and
 * the story of an apply both tell them.
 */
import type { FilterVerdict, InsufficientAmount } from './record';

/** Millicores as cores: 64000 -> "64", 3200 -> "3.2", 250 -> "0.25". */
export function cores(milli: number): string {
  return String(+(milli / 1000).toFixed(3));
}

/** Bytes as kubectl prints memory quantities in describe (binary suffixes). */
export function bytes(n: number): string {
  const units: [string, number][] = [['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]];
  for (const [suffix, size] of units) if (n >= size) return `${+(n / size).toFixed(2)}${suffix}`;
  return String(n);
}

function amount(resource: string, n: number): string {
  if (resource === 'cpu') return cores(n);
  if (resource === 'memory' || resource === 'ephemeral-storage' || resource.startsWith('hugepages-')) return bytes(n);
  return String(n);
}

/** "Insufficient cpu: 64 requested, 3.2 free" (upstream's reason, then the record's amounts). */
export function insufficientText(reason: string, a: InsufficientAmount | undefined): string {
  if (!a) return reason;
  const free = Math.max(0, a.capacity - a.used);
  if (a.resource === 'pods') return `${reason}: ${a.used} of ${a.capacity} pods on the node`;
  return `${reason}: ${amount(a.resource, a.requested)} requested, ${amount(a.resource, free)} free of ${amount(a.resource, a.capacity)}`;
}

/** The reasons of one node's rejection, with NodeResourcesFit's amounts where the record has them. */
export function rejectionText(v: FilterVerdict): string {
  const amounts = v.insufficient ?? [];
  const reasons = v.reasons.map((r) => {
    const resource = r === 'Too many pods' ? 'pods' : r.startsWith('Insufficient ') ? r.slice('Insufficient '.length) : undefined;
    return insufficientText(r, resource === undefined ? undefined : amounts.find((a) => a.resource === resource));
  });
  return `${v.plugin}: ${reasons.join('; ')}`;
}

