// The policy group has no defaulters: PodDisruptionBudget's unhealthyPodEvictionPolicy stays
// unset, and the eviction code treats unset as IfHealthyBudget.
export {};
