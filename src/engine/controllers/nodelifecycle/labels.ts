/**
 * reconcileNodeLabels: the deprecated beta.kubernetes.io/os and /arch labels follow their
 * kubernetes.io/ counterparts, and are added when missing.
 */
import type { Node } from '../util/types/node';
import { own, setOwn } from '../../api/own';

const RECONCILED: readonly [primary: string, secondary: string][] = [
  ['kubernetes.io/os', 'beta.kubernetes.io/os'],
  ['kubernetes.io/arch', 'beta.kubernetes.io/arch'],
];

/** The labels to set, or undefined when they already agree. */
export function labelsToReconcile(node: Node): Record<string, string> | undefined {
  const labels = node.metadata.labels;
  if (!labels) return undefined;
  const out: Record<string, string> = {};
  for (const [primary, secondary] of RECONCILED) {
    if (!Object.hasOwn(labels, primary)) continue;
    if (own(labels, secondary) !== own(labels, primary)) setOwn(out, secondary, own(labels, primary)!);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
