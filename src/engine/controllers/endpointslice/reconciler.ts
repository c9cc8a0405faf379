/**
 * The EndpointSlice reconciler (k8s.io/endpointslice Reconciler.Reconcile) as a pure planner:
 * given a Service, the pods its selector matches, its existing slices and the nodes, the slice
 * writes that bring the slices to the desired state, in the order the controller issues them.
 *
 * Per address type the Service supports: endpoints are grouped by port mapping and placed
 * (placement.ts); a Service with no endpoints keeps one empty placeholder slice; slices that
 * would be deleted while others are created are recycled (the create becomes an update of the
 * doomed slice). Slices of an address type the Service no longer has are deleted last.
 */
import { podToEndpoint, endpointKey, endpointPorts, portMapKey } from './endpoint';
import { placeEndpoints } from './placement';
import { shouldPodBeInEndpoints } from '../util/endpoint/pod';
import { addressTypesForService, newEndpointSlice, ownedBy } from './slice';
import { ANNOTATION_TRIGGER_TIME, type Endpoint, type EndpointPort, type EndpointSlice, type Node, type Pod, type Service } from '../util/types/endpoint';
import { own } from '../../api/own';

export interface ReconcileInput {
  service: Service;
  pods: readonly Pod[];
  existing: readonly EndpointSlice[];
  node(name: string): Node | undefined;
  maxEndpointsPerSlice: number;
  controllerName: string;
  /** endpoints.kubernetes.io/last-change-trigger-time, or undefined to clear it. */
  triggerTime?: string;
}

export type SliceAction = { verb: 'create' | 'update' | 'delete'; slice: EndpointSlice };

export interface ReconcilePlan {
  actions: SliceAction[];
  /** Why some pods were left out this time (their node is unknown): the sync is retried. */
  errors: string[];
}

export function reconcileSlices(input: ReconcileInput): ReconcilePlan {
  const supported = addressTypesForService(input.service);
  const byType = new Map<string, EndpointSlice[]>();
  const unsupported: EndpointSlice[] = [];
  for (const slice of input.existing) {
    if (!supported.includes(slice.addressType)) unsupported.push(slice);
    else byType.set(slice.addressType, [...(byType.get(slice.addressType) ?? []), slice]);
  }
  const actions: SliceAction[] = [];
  const errors: string[] = [];
  for (const addressType of supported) {
    const plan = reconcileAddressType(input, byType.get(addressType) ?? [], addressType, errors);
    actions.push(...finalize(input, plan));
  }
  for (const slice of unsupported) actions.push({ verb: 'delete', slice });
  return { actions, errors };
}

interface AddressTypePlan {
  create: EndpointSlice[];
  update: EndpointSlice[];
  delete: EndpointSlice[];
}

function reconcileAddressType(input: ReconcileInput, existing: readonly EndpointSlice[], addressType: string, errors: string[]): AddressTypePlan {
  const { service } = input;
  const plan: AddressTypePlan = { create: [], update: [], delete: [] };
  const existingByPortMap = new Map<string, EndpointSlice[]>();
  for (const slice of existing) {
    if (!ownedBy(slice, service)) {
      plan.delete.push(slice);
      continue;
    }
    const key = portMapKey(slice.ports ?? []);
    existingByPortMap.set(key, [...(existingByPortMap.get(key) ?? []), slice]);
  }

  const desiredByPortMap = new Map<string, { ports: EndpointPort[]; endpoints: Map<string, Endpoint> }>();
  for (const pod of input.pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = endpointPorts(service, pod);
    const key = portMapKey(ports);
    let group = desiredByPortMap.get(key);
    if (!group) desiredByPortMap.set(key, (group = { ports, endpoints: new Map() }));
    const nodeName = pod.spec?.nodeName ?? '';
    const node = input.node(nodeName);
    if (!node && !service.spec?.publishNotReadyAddresses) {
      errors.push(`skipping Pod ${pod.metadata.name ?? ''} for Service ${service.metadata.namespace ?? ''}/${service.metadata.name ?? ''}: Node ${nodeName} Not Found`);
      continue;
    }
    const ep = podToEndpoint(pod, node, service, addressType);
    if (ep.addresses.length > 0) group.endpoints.set(endpointKey(ep), ep);
  }

  for (const [key, group] of desiredByPortMap) {
    const placed = placeEndpoints({
      service,
      existing: existingByPortMap.get(key) ?? [],
      desired: group.endpoints,
      ports: group.ports,
      addressType,
      maxEndpointsPerSlice: input.maxEndpointsPerSlice,
      controllerName: input.controllerName,
    });
    plan.create.push(...placed.create);
    plan.update.push(...placed.update);
    plan.delete.push(...placed.delete);
  }
  for (const [key, slices] of existingByPortMap) if (!desiredByPortMap.has(key)) plan.delete.push(...slices);

  if (existing.length === plan.delete.length && plan.create.length === 0) {
    const placeholder = newEndpointSlice(service, [], addressType, input.controllerName);
    if (plan.delete.length === 1 && isPlaceholder(plan.delete[0]!, placeholder)) plan.delete = [];
    else plan.create.push(placeholder);
  }
  return plan;
}

/** The existing slice is already the placeholder this Service would get (namespace, labels, no endpoints or ports). */
function isPlaceholder(slice: EndpointSlice, placeholder: EndpointSlice): boolean {
  const a = slice.metadata.labels ?? {};
  const b = placeholder.metadata.labels ?? {};
  return (
    slice.metadata.namespace === placeholder.metadata.namespace &&
    Object.keys(a).length === Object.keys(b).length &&
    Object.keys(a).every((k) => own(b, k) === a[k]) &&
    slice.addressType === placeholder.addressType &&
    (slice.endpoints ?? []).length === 0 &&
    (slice.ports ?? []).length === 0
  );
}

/** Recycles slices to delete as targets of creates, stamps the trigger time, and orders the writes. */
function finalize(input: ReconcileInput, plan: AddressTypePlan): SliceAction[] {
  const create = [...plan.create];
  const update = [...plan.update];
  const remove = [...plan.delete];
  for (let i = 0; i < remove.length && create.length > 0; ) {
    const doomed = remove[i]!;
    const slice = create[create.length - 1]!;
    if (doomed.addressType === slice.addressType && ownedBy(doomed, input.service)) {
      slice.metadata.name = doomed.metadata.name;
      slice.metadata.resourceVersion = doomed.metadata.resourceVersion;
      slice.metadata.uid = doomed.metadata.uid;
      create.pop();
      update.push(slice);
      remove.splice(i, 1);
    } else {
      i++;
    }
  }
  const actions: SliceAction[] = [];
  if (!input.service.metadata.deletionTimestamp) for (const slice of create) actions.push({ verb: 'create', slice: stamp(slice, input.triggerTime) });
  for (const slice of update) actions.push({ verb: 'update', slice: stamp(slice, input.triggerTime) });
  for (const slice of remove) actions.push({ verb: 'delete', slice });
  return actions;
}

function stamp(slice: EndpointSlice, triggerTime: string | undefined): EndpointSlice {
  const annotations = { ...(slice.metadata.annotations ?? {}) };
  if (triggerTime !== undefined) annotations[ANNOTATION_TRIGGER_TIME] = triggerTime;
  else delete annotations[ANNOTATION_TRIGGER_TIME];
  if (Object.keys(annotations).length > 0) slice.metadata.annotations = annotations;
  else delete slice.metadata.annotations;
  return slice;
}
