/**
 * Categories, from the Categories() of each resource's REST storage in kube-apiserver 1.35
 * (pkg/registry/<group>/<resource>/storage/storage.go; apiextensions-apiserver for CRDs).
 * "all" is what `kubectl get all` expands to. Keys as in short-names.ts.
 */
import { table } from '../own';

export const CATEGORIES = table<readonly string[]>({
  pods: ['all'],
  replicationcontrollers: ['all'],
  services: ['all'],
  'daemonsets.apps': ['all'],
  'deployments.apps': ['all'],
  'replicasets.apps': ['all'],
  'statefulsets.apps': ['all'],
  'horizontalpodautoscalers.autoscaling': ['all'],
  'cronjobs.batch': ['all'],
  'jobs.batch': ['all'],
  'mutatingwebhookconfigurations.admissionregistration.k8s.io': ['api-extensions'],
  'validatingadmissionpolicies.admissionregistration.k8s.io': ['api-extensions'],
  'validatingadmissionpolicybindings.admissionregistration.k8s.io': ['api-extensions'],
  'validatingwebhookconfigurations.admissionregistration.k8s.io': ['api-extensions'],
  'customresourcedefinitions.apiextensions.k8s.io': ['api-extensions'],
  'apiservices.apiregistration.k8s.io': ['api-extensions'],
});
