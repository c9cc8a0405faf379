/** kubectl get deployments, replicasets, daemonsets, statefulsets, controllerrevisions. */
import { parseApiVersion, type KubeObject } from '../api/types';
import { ageColumn, containersColumn, imagesColumn, nameColumn } from './common';
import {
  CONTROLLER_REVISION_REVISION,
  DEPLOYMENT_AVAILABLE,
  DEPLOYMENT_SELECTOR,
  DEPLOYMENT_UPDATED,
  DS_AVAILABLE,
  DS_CURRENT,
  DS_DESIRED,
  DS_READY,
  DS_SPEC_SELECTOR,
  DS_UPDATED,
  POD_NODE_SELECTOR,
  RS_SPEC_REPLICAS,
  RS_SPEC_SELECTOR,
  RS_STATUS_READY_REPLICAS,
  RS_STATUS_REPLICAS,
} from './descriptions';
import { ageOf, containerCells, formatLabels, formatLabelSelector, int, obj, objs, selectorString, str, strMap } from './format';
import { column, type Printer } from './table';

const templateSpec = (o: KubeObject): unknown => obj(obj(o.spec).template).spec;

export const deploymentPrinter: Printer = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', DEPLOYMENT_UPDATED),
    column('Available', 'string', DEPLOYMENT_AVAILABLE),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', DEPLOYMENT_SELECTOR, { priority: 1 }),
  ],
  cells(d, ctx) {
    const spec = obj(d.spec);
    const status = obj(d.status);
    const [names, images] = containerCells(templateSpec(d));
    return [
      d.metadata.name ?? '',
      `${int(status.readyReplicas)}/${int(spec.replicas)}`,
      int(status.updatedReplicas),
      int(status.availableReplicas),
      ageOf(d, ctx.now),
      names,
      images,
      selectorString(spec.selector),
    ];
  },
};

export const replicaSetPrinter: Printer = {
  columns: [
    nameColumn,
    column('Desired', 'integer', RS_SPEC_REPLICAS),
    column('Current', 'integer', RS_STATUS_REPLICAS),
    column('Ready', 'integer', RS_STATUS_READY_REPLICAS),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', RS_SPEC_SELECTOR, { priority: 1 }),
  ],
  cells(rs, ctx) {
    const spec = obj(rs.spec);
    const status = obj(rs.status);
    const [names, images] = containerCells(templateSpec(rs));
    return [rs.metadata.name ?? '', int(spec.replicas), int(status.replicas), int(status.readyReplicas), ageOf(rs, ctx.now), names, images, formatLabelSelector(spec.selector)];
  },
};

export const daemonSetPrinter: Printer = {
  columns: [
    nameColumn,
    column('Desired', 'integer', DS_DESIRED),
    column('Current', 'integer', DS_CURRENT),
    column('Ready', 'integer', DS_READY),
    column('Up-to-date', 'integer', DS_UPDATED),
    column('Available', 'integer', DS_AVAILABLE),
    column('Node Selector', 'string', POD_NODE_SELECTOR),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', DS_SPEC_SELECTOR, { priority: 1 }),
  ],
  cells(ds, ctx) {
    const status = obj(ds.status);
    const spec = obj(templateSpec(ds));
    const [names, images] = containerCells(spec);
    return [
      ds.metadata.name ?? '',
      int(status.desiredNumberScheduled),
      int(status.currentNumberScheduled),
      int(status.numberReady),
      int(status.updatedNumberScheduled),
      int(status.numberAvailable),
      formatLabels(strMap(spec.nodeSelector)),
      ageOf(ds, ctx.now),
      names,
      images,
      formatLabelSelector(obj(ds.spec).selector),
    ];
  },
};

export const statefulSetPrinter: Printer = {
  columns: [nameColumn, column('Ready', 'string', 'Number of the pod with ready state'), ageColumn, containersColumn, imagesColumn],
  cells(sts, ctx) {
    const [names, images] = containerCells(templateSpec(sts));
    return [sts.metadata.name ?? '', `${int(obj(sts.status).readyReplicas)}/${int(obj(sts.spec).replicas)}`, ageOf(sts, ctx.now), names, images];
  },
};

/** The controller owning the revision as "kind.group/name", or "<none>". */
function controllerName(o: KubeObject): string {
  const ref = objs(o.metadata.ownerReferences).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const { group } = parseApiVersion(str(ref.apiVersion));
  const kind = str(ref.kind);
  if (!kind && !group) return str(ref.name);
  return `${(group ? `${kind}.${group}` : kind).toLowerCase()}/${str(ref.name)}`;
}

export const controllerRevisionPrinter: Printer = {
  columns: [nameColumn, column('Controller', 'string', 'Controller of the object'), column('Revision', 'string', CONTROLLER_REVISION_REVISION), ageColumn],
  cells: (cr, ctx) => [cr.metadata.name ?? '', controllerName(cr), int(cr.revision), ageOf(cr, ctx.now)],
};
