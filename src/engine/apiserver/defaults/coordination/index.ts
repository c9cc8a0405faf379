// The coordination.k8s.io group has no defaulters: Lease has no defaulted fields.
export {};
