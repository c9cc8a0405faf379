// Registers the core group's validators; one import per kind file.
import './configmap';
import './endpoints';
import './event';
import './limitrange';
import './namespace';
import './node';
import './persistentvolume';
import './persistentvolumeclaim';
import './pod';
import './podtemplate';
import './replicationcontroller';
import './resourcequota';
import './secret';
import './service';
import './serviceaccount';

// Shared with other groups' rules (workload templates, scheduling, storage, the Service REST).
export { validateAffinity, validateNodeSelector, validateNodeSelectorTerm } from './affinity';
export { validateContainers, validateEphemeralContainers, validateInitContainers, type ContainerContext } from './container';
export { validateTemplateObjectMeta } from './volumes';
export { legacyValidateEvent } from './event';
export { validateNamespaceFinalizeUpdate } from './namespace';
export {
  defaultServiceNodePortRange,
  nodePortAllocatedError,
  nodePortAllocatedMessage,
  nodePortInRange,
  nodePortNotInRangeError,
  nodePortNotInRangeMessage,
  portRangeString,
  type PortRange,
} from './nodeports';
export { createOptions, podValidationOptions, type PodValidationOptions } from './options';
export { validatePersistentVolumeClaimSpec } from './persistentvolumeclaim';
export { validatePersistentVolumeSpec } from './persistentvolume';
export { validatePodCreate, validatePodEphemeralContainersUpdate, validatePodStatusUpdate, validatePodUpdate } from './pod';
export { validatePodSpec } from './podspec';
export { podTemplateValidationOptions, validatePodTemplateSpec } from './podtemplate';
export { validateContainerResourceRequirements as validateResourceRequirements, validateResourceQuantityValue } from './resources';
export { validateLoadBalancerStatus, validateNonSpecialIP, validateService, validateServiceClusterIPsRelatedFields } from './service';
export { validateTaintEffect, validateTolerations } from './tolerations';
export { validateTopologySpreadConstraints } from './topology';
