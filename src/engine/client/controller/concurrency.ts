/**
 * kube-controller-manager's --concurrent-*-syncs defaults: how many workers each control loop
 * runs.
 */
export const CONCURRENT_SYNCS: Readonly<Record<string, number>> = {
  deployment: 5,
  replicaset: 5,
  replicationcontroller: 5,
  statefulset: 5,
  daemonset: 2,
  job: 5,
  cronjob: 5,
  endpoint: 5,
  endpointslice: 5,
  endpointslicemirroring: 5,
  garbagecollector: 20,
  namespace: 10,
  resourcequota: 5,
  'serviceaccount-token': 5,
  'horizontal-pod-autoscaler': 5,
};
