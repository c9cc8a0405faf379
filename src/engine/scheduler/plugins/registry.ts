/**
 * The default profile ("default-scheduler"), in the order and with the score weights of
 * pkg/scheduler/apis/config/v1/default_plugins.go (1.35, DynamicResources enabled). The
 * in-tree volume limit plugins (VolumeRestrictions, NodeVolumeLimits and the cloud disk limits)
 * and VolumeZone are not part of kubesim: they only constrain pods with volumes kubesim does not
 * simulate.
 */
import type { Handle } from '../framework/interface';
import type { WeightedPlugin } from '../framework/runtime';
import { BalancedAllocation } from './balanced-allocation';
import { DefaultBinder } from './default-binder';
import { DefaultPreemption } from './default-preemption';
import { DynamicResources } from './dynamic-resources';
import { ImageLocality } from './image-locality';
import { InterPodAffinity } from './inter-pod-affinity';
import { NodeAffinity } from './node-affinity';
import { NodeName } from './node-name';
import { NodePorts } from './node-ports';
import { NodeResourcesFit } from './node-resources-fit';
import { NodeUnschedulable } from './node-unschedulable';
import { PodTopologySpread } from './pod-topology-spread';
import { PrioritySort } from './priority-sort';
import { SchedulingGates } from './scheduling-gates';
import { TaintToleration } from './taint-toleration';
import { VolumeBinding } from './volume-binding';

export function defaultPlugins(handle: Handle): WeightedPlugin[] {
  return [
    { plugin: new SchedulingGates(), weight: 0 },
    { plugin: new PrioritySort(), weight: 0 },
    { plugin: new NodeUnschedulable(), weight: 0 },
    { plugin: new NodeName(), weight: 0 },
    { plugin: new TaintToleration(), weight: 3 },
    { plugin: new NodeAffinity(), weight: 2 },
    { plugin: new NodePorts(), weight: 0 },
    { plugin: new NodeResourcesFit(), weight: 1 },
    { plugin: new VolumeBinding(handle), weight: 1 },
    { plugin: new PodTopologySpread(handle), weight: 2 },
    { plugin: new InterPodAffinity(handle), weight: 2 },
    { plugin: new DynamicResources(), weight: 0 },
    { plugin: new DefaultPreemption(handle), weight: 0 },
    { plugin: new BalancedAllocation(), weight: 1 },
    { plugin: new ImageLocality(handle), weight: 1 },
    { plugin: new DefaultBinder(handle), weight: 0 },
  ];
}
