/**
 * Short names, from the ShortNames() of each resource's REST storage in kube-apiserver 1.35
 * (pkg/registry/<group>/<resource>/storage/storage.go and apiextensions-apiserver's
 * pkg/registry/customresourcedefinition), as discovery (api/discovery/*.json) lists them.
 * Keys are "<resource>.<group>", the core group without the dot.
 */
import { table } from '../own';

export const SHORT_NAMES = table<readonly string[]>({
  componentstatuses: ['cs'],
  configmaps: ['cm'],
  endpoints: ['ep'],
  events: ['ev'],
  limitranges: ['limits'],
  namespaces: ['ns'],
  nodes: ['no'],
  persistentvolumeclaims: ['pvc'],
  persistentvolumes: ['pv'],
  pods: ['po'],
  replicationcontrollers: ['rc'],
  resourcequotas: ['quota'],
  serviceaccounts: ['sa'],
  services: ['svc'],
  'customresourcedefinitions.apiextensions.k8s.io': ['crd', 'crds'],
  'daemonsets.apps': ['ds'],
  'deployments.apps': ['deploy'],
  'replicasets.apps': ['rs'],
  'statefulsets.apps': ['sts'],
  'horizontalpodautoscalers.autoscaling': ['hpa'],
  'cronjobs.batch': ['cj'],
  'events.events.k8s.io': ['ev'],
  'ingresses.networking.k8s.io': ['ing'],
  'networkpolicies.networking.k8s.io': ['netpol'],
  'poddisruptionbudgets.policy': ['pdb'],
  'priorityclasses.scheduling.k8s.io': ['pc'],
  'storageclasses.storage.k8s.io': ['sc'],
  'volumeattributesclasses.storage.k8s.io': ['vac'],
});
