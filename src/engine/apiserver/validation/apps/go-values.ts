/**
 * Bad values as kube-apiserver prints them. Since 1.34 a non-scalar bad value is rendered with
 * encoding/json, and upstream passes internal Go structs, which have no JSON tags: every
 * exported field appears under its Go name in declaration order. These builders return Maps so
 * goJson keeps that order.
 */
import { isObject } from '../../../api/types';
import { arr, obj, str, type Obj } from '../core/json';
import { intOrString } from './int-or-percent';

type Fields = [string, unknown][];

export function goStruct(fields: Fields): Map<string, unknown> {
  return new Map(fields);
}

/** A string map with Go's sorted-key JSON, or null for an absent map. */
export function stringMap(v: unknown): Record<string, string> | null {
  if (!isObject(v)) return null;
  return Object.fromEntries(Object.keys(v).map((k) => [k, str(v[k])]));
}

/** *metav1.LabelSelector as JSON: it does carry JSON tags (omitempty), in struct order. */
export function labelSelectorValue(sel: unknown): Map<string, unknown> | null {
  const s = obj(sel);
  if (!s) return null;
  const out = new Map<string, unknown>();
  const labels = stringMap(s['matchLabels']);
  if (labels && Object.keys(labels).length > 0) out.set('matchLabels', labels);
  const exprs = arr(s['matchExpressions']);
  if (exprs.length > 0) {
    out.set(
      'matchExpressions',
      exprs.map((e) => {
        const r = obj(e) ?? {};
        const m = new Map<string, unknown>([
          ['key', str(r['key'])],
          ['operator', str(r['operator'])],
        ]);
        const values = arr(r['values']);
        if (values.length > 0) m.set('values', values.map(str));
        return m;
      }),
    );
  }
  return out;
}

/**
 * The internal DeploymentStrategy or DaemonSetUpdateStrategy (the same two fields, and a rolling
 * update of maxUnavailable and maxSurge), as an unsupported strategy type error prints it.
 */
export function rollingStrategyValue(s: Obj): Map<string, unknown> {
  const ru = obj(s['rollingUpdate']);
  return goStruct([
    ['Type', str(s['type'])],
    ['RollingUpdate', ru ? goStruct([['MaxUnavailable', intOrString(ru['maxUnavailable'])], ['MaxSurge', intOrString(ru['maxSurge'])]]) : null],
  ]);
}
