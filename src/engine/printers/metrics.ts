/**
 * kubectl get podmetrics / nodemetrics: metrics-server's own table convertor (pkg/api/table.go),
 * which kube-apiserver's aggregator passes through: NAME, a column per resource in the usage
 * (cpu, memory) with the summed quantity, and WINDOW.
 */
import { quantityOrUndefined, type Quantity } from '../api/quantity';
import type { KubeObject } from '../api/types';
import { obj, objs, str } from './format';
import { column, type Printer } from './table';
import { own } from '../api/own';

const RESOURCES = ['cpu', 'memory'];

const columns = [
  column('Name', 'string', 'Name of the resource', { format: 'name' }),
  ...RESOURCES.map((r) => column(r, 'string', '', { format: 'quantity' })),
  column('Window', 'string', '', { format: 'duration' }),
];

/** The sum of the usage lists' quantities of a resource. */
function sum(usages: readonly Record<string, unknown>[], resource: string): string {
  let total: Quantity | undefined;
  for (const u of usages) {
    const q = quantityOrUndefined(str(own(u, resource)));
    if (!q) continue;
    total = total ? total.add(q) : q;
  }
  return total ? total.toString() : '0';
}

export const podMetricsPrinter: Printer = {
  columns,
  cells(m: KubeObject) {
    const usages = objs(m.containers).map((c) => obj(c.usage));
    return [m.metadata.name ?? '', ...RESOURCES.map((r) => sum(usages, r)), str(m.window)];
  },
};

export const nodeMetricsPrinter: Printer = {
  columns,
  cells(m: KubeObject) {
    const usage = obj(m.usage);
    return [m.metadata.name ?? '', ...RESOURCES.map((r) => sum([usage], r)), str(m.window)];
  },
};
