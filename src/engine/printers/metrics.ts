/**
 * kubectl get podmetrics / nodemetrics: metrics-server's own table convertor (pkg/api/table.go),
 * which kube-apiserver's aggregator passes through: NAME, a column per resource in the usage
 * (cpu, memory) with the summed quantity, and WINDOW.
 */
import { quantityOrUndefined, type Quantity } from '../api/quantity';
import type { KubeObject } from '../api/types';
import { obj, objs, str } from './format';
import { col, tablePrinter, type Printer } from './table';
import { own } from '../api/own';

const RESOURCES = ['cpu', 'memory'];

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

/** NAME, a column per resource with the usages' sum, WINDOW: over the usage lists `usages` finds. */
function metricsPrinter(usages: (m: KubeObject) => Record<string, unknown>[]): Printer {
  return tablePrinter<Record<string, unknown>[]>(
    [
      col('Name', 'string', 'Name of the resource', (r) => r.object.metadata.name ?? '', { format: 'name' }),
      ...RESOURCES.map((resource) => col<Record<string, unknown>[]>(resource, 'string', '', (r) => sum(r.view, resource), { format: 'quantity' })),
      col('Window', 'string', '', (r) => str(r.object.window), { format: 'duration' }),
    ],
    { view: usages },
  );
}

/** A pod's usage is its containers'. */
export const podMetricsPrinter = metricsPrinter((m) => objs(m.containers).map((c) => obj(c.usage)));

export const nodeMetricsPrinter = metricsPrinter((m) => [obj(m.usage)]);
