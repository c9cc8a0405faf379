/**
 * The columns most printers share: NAME, AGE, and the CONTAINERS / IMAGES pair of the kinds that
 * carry a pod template, as definitions and as columns with their cells.
 */
import { OBJECT_CREATION_TIMESTAMP, OBJECT_NAME } from './descriptions';
import { ageOf, containerCells, int, obj } from './format';
import { col, column, tablePrinter, wide, type Cell, type ColumnSpec, type Printer, type Row, type TableColumnDefinition } from './table';

export const nameColumn: TableColumnDefinition = column('Name', 'string', OBJECT_NAME, { format: 'name' });
export const ageColumn: TableColumnDefinition = column('Age', 'string', OBJECT_CREATION_TIMESTAMP);

/** NAME: metadata.name. */
export const NAME: ColumnSpec<unknown> = { definition: nameColumn, cell: (r) => r.object.metadata.name ?? '' };
/** AGE: how long ago the object was created. */
export const AGE: ColumnSpec<unknown> = { definition: ageColumn, cell: (r) => ageOf(r.object, r.now) };

export const CONTAINERS_DESCRIPTION = 'Names of each container in the template.';
export const IMAGES_DESCRIPTION = 'Images referenced by each container in the template.';

/** AGE, then the wide CONTAINERS and IMAGES of the pod template whose spec `podSpec` finds. */
export function podTemplateColumns(podSpec: (row: Row) => unknown): ColumnSpec[] {
  return [
    AGE,
    wide('Containers', 'string', CONTAINERS_DESCRIPTION, (r) => containerCells(podSpec(r))[0]),
    wide('Images', 'string', IMAGES_DESCRIPTION, (r) => containerCells(podSpec(r))[1]),
  ];
}

/** spec.template.spec, where the workload kinds keep their pods' spec. */
export const templatePodSpec = (r: Row): unknown => obj(r.spec.template).spec;

export interface ReplicaDescriptions {
  desired: string;
  current: string;
  ready: string;
  selector: string;
}

/**
 * ReplicaSets and ReplicationControllers print alike: DESIRED (spec.replicas), CURRENT and READY
 * (status), the pod template's columns, and the selector (wide), formatted by `selector`.
 */
export function replicatedPodsPrinter(d: ReplicaDescriptions, selector: (spec: Row['spec']) => Cell): Printer {
  return tablePrinter([
    NAME,
    col('Desired', 'integer', d.desired, (r) => int(r.spec.replicas)),
    col('Current', 'integer', d.current, (r) => int(r.status.replicas)),
    col('Ready', 'integer', d.ready, (r) => int(r.status.readyReplicas)),
    ...podTemplateColumns(templatePodSpec),
    wide('Selector', 'string', d.selector, (r) => selector(r.spec)),
  ]);
}
