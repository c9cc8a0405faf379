/**
 * Resources kube-apiserver serves from another resource's storage (the storage factory's
 * cohabiting resources), with the conversion between the two.
 */
import type { GroupResource } from '../storage/reader';
import { HPA_V1_CONVERSION } from './autoscaling';
import { EVENTS_V1_CONVERSION } from './events';
import type { Conversion } from './types';
import { table } from '../../api/own';

export interface Cohabitation {
  readonly storedAs: GroupResource;
  readonly conversion: Conversion;
}

const COHABITING = table<Cohabitation>({
  'events.k8s.io/events': { storedAs: { group: '', resource: 'events' }, conversion: EVENTS_V1_CONVERSION },
});

export function cohabitationOf(r: GroupResource): Cohabitation | undefined {
  return COHABITING[`${r.group}/${r.resource}`];
}

export type { Conversion } from './types';

/**
 * Built-in resources served in a version other than the one they are stored in (kube-apiserver
 * converts through the internal version; the storage version owns the etcd keys).
 */
const CONVERTED_VERSIONS = table<Conversion>({
  'autoscaling/v1/horizontalpodautoscalers': HPA_V1_CONVERSION,
});

export function versionConversionOf(r: GroupResource & { version: string }): Conversion | undefined {
  return CONVERTED_VERSIONS[`${r.group}/${r.version}/${r.resource}`];
}
