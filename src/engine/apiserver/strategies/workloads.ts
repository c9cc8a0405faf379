/**
 * Workload strategies with more than generation tracking: a Job gets a selector and pod labels
 * tied to its uid (pkg/registry/batch/job), a DaemonSet counts template generations in the
 * deprecated.daemonset.template.generation annotation (pkg/registry/apps/daemonset).
 */
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import type { ResourceInfo } from '../resources';
import { semanticEqual } from '../validation/meta';
import { genericStrategy } from './generic';
import type { Strategy } from './types';

const JOB_NAME_LABELS = ['job-name', 'batch.kubernetes.io/job-name'] as const;
const CONTROLLER_UID_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'] as const;

function generateJobSelector(job: KubeObject): void {
  const spec = isObject(job.spec) ? job.spec : {};
  if (spec.manualSelector === true) return;
  const template = isObject(spec.template) ? spec.template : {};
  const meta = isObject(template.metadata) ? template.metadata : {};
  const labels = isObject(meta.labels) ? meta.labels : {};
  for (const l of JOB_NAME_LABELS) if (!Object.hasOwn(labels, l)) labels[l] = job.metadata.name ?? '';
  for (const l of CONTROLLER_UID_LABELS) if (!Object.hasOwn(labels, l)) labels[l] = job.metadata.uid ?? '';
  meta.labels = labels;
  template.metadata = meta;
  spec.template = template;
  const selector = isObject(spec.selector) ? spec.selector : {};
  const matchLabels = isObject(selector.matchLabels) ? selector.matchLabels : {};
  if (!Object.hasOwn(matchLabels, 'batch.kubernetes.io/controller-uid')) matchLabels['batch.kubernetes.io/controller-uid'] = job.metadata.uid ?? '';
  selector.matchLabels = matchLabels;
  spec.selector = selector;
  job.spec = spec;
}

export function jobStrategy(type: ResourceInfo): Strategy {
  const base = genericStrategy(type, { generation: true });
  return {
    ...base,
    prepareForCreate(obj, ctx) {
      base.prepareForCreate(obj, ctx);
      generateJobSelector(obj);
    },
  };
}

const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

export function daemonSetStrategy(type: ResourceInfo): Strategy {
  const base = genericStrategy(type, { generation: true });
  const template = (o: KubeObject): JsonObject | undefined => (isObject(o.spec) && isObject(o.spec.template) ? o.spec.template : undefined);
  return {
    ...base,
    prepareForCreate(obj, ctx) {
      base.prepareForCreate(obj, ctx);
      obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [TEMPLATE_GENERATION]: '1' };
    },
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      const previous = Number(old.metadata.annotations?.[TEMPLATE_GENERATION] ?? '0') || 0;
      const next = semanticEqual(template(obj), template(old)) ? previous : previous + 1;
      if (next > 0) obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [TEMPLATE_GENERATION]: String(next) };
    },
  };
}
