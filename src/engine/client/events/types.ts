/** The Event shapes the recorders write: core/v1 Event and events.k8s.io/v1 Event. */

export type EventType = 'Normal' | 'Warning';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  /** "spec.containers{nginx}": the part of the object the event is about (kubelet). */
  fieldPath?: string;
}

/** core/v1 EventSource. */
export interface EventSource {
  /** "deployment-controller", "kubelet". */
  component?: string;
  /** The node, for kubelets. */
  host?: string;
}

export interface CoreEvent {
  apiVersion: 'v1';
  kind: 'Event';
  metadata: { name: string; namespace: string; annotations?: Record<string, string>; resourceVersion?: string; [key: string]: unknown };
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: EventSource;
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
  type: string;
  eventTime: null;
  reportingComponent: string;
  reportingInstance: string;
}

export interface EventSeries {
  count: number;
  lastObservedTime: string;
}

export interface EventsV1Event {
  apiVersion: 'events.k8s.io/v1';
  kind: 'Event';
  metadata: { name: string; namespace: string; resourceVersion?: string; [key: string]: unknown };
  eventTime: string;
  series?: EventSeries;
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  regarding: ObjectReference;
  related?: ObjectReference;
  note: string;
  type: string;
}
