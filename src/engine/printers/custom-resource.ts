/**
 * Custom resources print with their CRD's additionalPrinterColumns (apiextensions-apiserver's
 * table convertor): NAME, then each column's value at its JSONPath; without columns, the CRD's
 * default AGE column. Paths are the simple ones CRDs allow (.a.b, .a[0].b, .a['x.y']).
 */
import type { JsonValue } from '../api/types';
import { humanDuration } from './duration';
import { NAME } from './common';
import { col, tablePrinter, type Cell, type Printer } from './table';
import { own } from '../api/own';

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

const DEFAULT_COLUMNS: readonly PrinterColumn[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];

function pathSegments(jsonPath: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(jsonPath)) !== null) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(m[3] ?? m[4] ?? '');
  }
  return out;
}

function valueAt(obj: unknown, path: (string | number)[]): JsonValue | undefined {
  let cur: unknown = obj;
  for (const seg of path) {
    if (typeof seg === 'number') cur = Array.isArray(cur) ? cur[seg] : undefined;
    else cur = cur !== null && typeof cur === 'object' && !Array.isArray(cur) ? own((cur as Record<string, unknown>), seg) : undefined;
    if (cur === undefined) return undefined;
  }
  return cur as JsonValue;
}

/** cellForJSONValue: the value as the column's type, or null where it does not fit. */
function cellFor(type: string, value: JsonValue | undefined, now: number): Cell {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = Date.parse(value);
      return Number.isNaN(t) ? '<invalid>' : humanDuration(now - t);
    }
    default:
      return null;
  }
}

export function customResourcePrinter(columns: readonly PrinterColumn[] = []): Printer {
  const defs = columns.length > 0 ? columns : DEFAULT_COLUMNS;
  return tablePrinter([
    NAME,
    ...defs.map((c) => {
      const path = pathSegments(c.jsonPath);
      const description = c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`;
      return col(c.name, c.type, description, (r) => cellFor(c.type, valueAt(r.object, path), r.now), { format: c.format, priority: c.priority });
    }),
  ]);
}
