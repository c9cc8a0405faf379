export { EventBroadcaster, EventRecorder, type EventBroadcasterOptions } from './recorder';
export { EventsV1Broadcaster, EventsV1Recorder, type EventsV1BroadcasterOptions } from './v1-recorder';
export { AGGREGATE_MESSAGE_PREFIX, EventCorrelator, eventKey, spamKey, type CorrelateResult, type CorrelatorOptions } from './correlator';
export { getPartialReference, getReference } from './reference';
export { generateEventName } from './name';
export type { CoreEvent, EventSeries, EventSource, EventsV1Event, EventType, ObjectReference } from './types';
