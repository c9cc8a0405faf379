/**
 * How Go prints a *metav1.LabelSelector with %v (its generated String method), as the
 * UnmanagedPods event shows the budget's selector:
 * &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}
 */
import type { LabelSelector } from '../../api/labels';

export function labelSelectorString(selector: LabelSelector | null | undefined): string {
  if (!selector) return 'nil';
  const labels = selector.matchLabels ?? {};
  const matchLabels = Object.keys(labels)
    .sort()
    .map((k) => `${k}: ${labels[k]!},`)
    .join('');
  const expressions = (selector.matchExpressions ?? [])
    .map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${matchLabels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}
