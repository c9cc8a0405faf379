/**
 * Go renderings the RBAC messages are made of: %q of a []string, PolicyRule CompactString (the
 * escalation message), and utilerrors.NewAggregate(...).Error().
 */
import { goQuote } from '../../../api/gofmt';
import type { PolicyRule } from './types';

/** fmt %q of a []string: ["a" "b"]. */
export function goQuoteList(xs: readonly string[]): string {
  return '[' + xs.map(goQuote).join(' ') + ']';
}

/** rbacv1helpers.CompactString: {APIGroups:["apps"], Resources:["deployments"], Verbs:["create"]}. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, xs: readonly string[] | undefined): void => {
    if (xs && xs.length > 0) parts.push(`${label}:${goQuoteList(xs)}`);
  };
  add('APIGroups', r.apiGroups);
  add('Resources', r.resources);
  add('NonResourceURLs', r.nonResourceURLs);
  add('ResourceNames', r.resourceNames);
  add('Verbs', r.verbs);
  return '{' + parts.join(', ') + '}';
}

/**
 * An aggregate error's text from its (flattened) messages: one message as is, several deduplicated
 * in order and bracketed, "[a, b]", unless deduplication leaves one.
 */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length === 1) return messages[0]!;
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : '[' + unique.join(', ') + ']';
}

/** Go's sort.Strings order (bytes, which for these ASCII texts is code units). */
export const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
