/** kubectl get deployments, replicasets, daemonsets, statefulsets, controllerrevisions. */
import { parseApiVersion, type KubeObject } from '../api/types';
import { AGE, NAME, podTemplateColumns, replicatedPodsPrinter, templatePodSpec } from './common';
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
import { formatLabels, formatLabelSelector, int, obj, objs, selectorString, str, strMap } from './format';
import { col, tablePrinter, wide, type Row } from './table';

const READY_DESCRIPTION = 'Number of the pod with ready state';

/** READY as "ready/desired", of the kinds that count their replicas so. */
const readyOfDesired = (r: Row): string => `${int(r.status.readyReplicas)}/${int(r.spec.replicas)}`;

export const deploymentPrinter = tablePrinter([
  NAME,
  col('Ready', 'string', READY_DESCRIPTION, readyOfDesired),
  col('Up-to-date', 'string', DEPLOYMENT_UPDATED, (r) => int(r.status.updatedReplicas)),
  col('Available', 'string', DEPLOYMENT_AVAILABLE, (r) => int(r.status.availableReplicas)),
  ...podTemplateColumns(templatePodSpec),
  wide('Selector', 'string', DEPLOYMENT_SELECTOR, (r) => selectorString(r.spec.selector)),
]);

export const replicaSetPrinter = replicatedPodsPrinter(
  { desired: RS_SPEC_REPLICAS, current: RS_STATUS_REPLICAS, ready: RS_STATUS_READY_REPLICAS, selector: RS_SPEC_SELECTOR },
  (spec) => formatLabelSelector(spec.selector),
);

export const daemonSetPrinter = tablePrinter([
  NAME,
  col('Desired', 'integer', DS_DESIRED, (r) => int(r.status.desiredNumberScheduled)),
  col('Current', 'integer', DS_CURRENT, (r) => int(r.status.currentNumberScheduled)),
  col('Ready', 'integer', DS_READY, (r) => int(r.status.numberReady)),
  col('Up-to-date', 'integer', DS_UPDATED, (r) => int(r.status.updatedNumberScheduled)),
  col('Available', 'integer', DS_AVAILABLE, (r) => int(r.status.numberAvailable)),
  col('Node Selector', 'string', POD_NODE_SELECTOR, (r) => formatLabels(strMap(obj(templatePodSpec(r)).nodeSelector))),
  ...podTemplateColumns(templatePodSpec),
  wide('Selector', 'string', DS_SPEC_SELECTOR, (r) => formatLabelSelector(r.spec.selector)),
]);

export const statefulSetPrinter = tablePrinter([NAME, col('Ready', 'string', READY_DESCRIPTION, readyOfDesired), ...podTemplateColumns(templatePodSpec)]);

/** The controller owning the revision as "kind.group/name", or "<none>". */
function controllerName(o: KubeObject): string {
  const ref = objs(o.metadata.ownerReferences).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const { group } = parseApiVersion(str(ref.apiVersion));
  const kind = str(ref.kind);
  if (!kind && !group) return str(ref.name);
  return `${(group ? `${kind}.${group}` : kind).toLowerCase()}/${str(ref.name)}`;
}

export const controllerRevisionPrinter = tablePrinter([
  NAME,
  col('Controller', 'string', 'Controller of the object', (r) => controllerName(r.object)),
  col('Revision', 'string', CONTROLLER_REVISION_REVISION, (r) => int(r.object.revision)),
  AGE,
]);
