// The events.k8s.io group has no defaulters: events.k8s.io/v1 Event has no defaulted fields.
export {};
