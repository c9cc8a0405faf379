/**
 * Resources kube-apiserver serves from another resource's storage (the storage factory's
 * cohabiting resources), with the conversion between the two.
 */
import type { GroupResource } from '../storage/reader';
import { EVENTS_V1_CONVERSION } from './events';
import type { Conversion } from './types';

export interface Cohabitation {
  readonly storedAs: GroupResource;
  readonly conversion: Conversion;
}

const COHABITING: Readonly<Record<string, Cohabitation>> = {
  'events.k8s.io/events': { storedAs: { group: '', resource: 'events' }, conversion: EVENTS_V1_CONVERSION },
};

export function cohabitationOf(r: GroupResource): Cohabitation | undefined {
  return COHABITING[`${r.group}/${r.resource}`];
}

export type { Conversion } from './types';
