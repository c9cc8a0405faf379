/**
 * The difference shown after "... is immutable" style messages. Upstream prints go-cmp's diff of
 * the internal Go structs, whose exact layout is deliberately unstable; this prints the changed
 * fields of the v1 JSON in the same -/+ shape.
 */
import { goJson } from '../../../api/gofmt';
import { isObject } from '../../../api/types';
import { isZero, semanticEqual } from './json';
import { own } from '../../../api/own';

export function specDiff(oldVal: unknown, newVal: unknown): string {
  const lines: string[] = [];
  collect(oldVal, newVal, '', lines);
  return ['  {', ...lines, '  }', ''].join('\n');
}

function collect(a: unknown, b: unknown, path: string, lines: string[]): void {
  if (semanticEqual(a, b)) return;
  if (isObject(a) && isObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) collect(own(a, k), own(b, k), path === '' ? k : `${path}.${k}`, lines);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => collect(x, b[i], `${path}[${i}]`, lines));
    return;
  }
  if (!isZero(a)) lines.push(`- \t${path}: ${goJson(a)},`);
  if (!isZero(b)) lines.push(`+ \t${path}: ${goJson(b)},`);
}
