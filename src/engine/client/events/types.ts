/** The Event shapes the recorders write: core/v1 Event and events.k8s.io/v1 Event. */
import type * as core from '../../api/generated/core-v1';
import type * as events from '../../api/generated/events-v1';

export type EventType = 'Normal' | 'Warning';

/** core/v1 ObjectReference (fieldPath "spec.containers{nginx}" names the part an event is about) and EventSource (component "kubelet", host the node). */
export type { EventSource, ObjectReference } from '../../api/generated/core-v1';

/** A core/v1 Event as the recorder writes it: named, namespaced, with every field it sets. */
export type CoreEvent = core.Event &
  Required<Pick<core.Event, 'reason' | 'message' | 'source' | 'count' | 'type' | 'reportingComponent' | 'reportingInstance'>> & {
    apiVersion: 'v1';
    kind: 'Event';
    metadata: { name: string; namespace: string };
    firstTimestamp: string;
    lastTimestamp: string;
    eventTime: null;
  };

export type { EventSeries } from '../../api/generated/events-v1';

/** An events.k8s.io/v1 Event as the recorder writes it: named, namespaced, with every field it sets. */
export type EventsV1Event = events.Event &
  Required<Pick<events.Event, 'reportingController' | 'reportingInstance' | 'action' | 'reason' | 'regarding' | 'note' | 'type'>> & {
    apiVersion: 'events.k8s.io/v1';
    kind: 'Event';
    metadata: { name: string; namespace: string };
  };
