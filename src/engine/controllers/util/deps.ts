/**
 * What kube-controller-manager gives each controller, and the two pieces every controller builds
 * from it the same way: its event recorder and its control loop.
 */
import type { Clock } from '../../clock';
import type { Client } from '../../client/client';
import { Controller, type ControllerOptions } from '../../client/controller';
import { EventBroadcaster, type EventRecorder } from '../../client/events';
import type { SharedInformerFactory } from '../../client/informer';
import type { Random } from '../../random';
import type { TraceBuffer } from '../../trace/buffer';

export interface ControllerDeps {
  /** The controller's own client (its service account identity). */
  client: Client;
  /** kube-controller-manager's shared informers. */
  informers: SharedInformerFactory;
  clock: Clock;
  random: Random;
  trace: TraceBuffer;
}

/**
 * The recorder of the events a controller reports as `component`; `stream` names the fork of
 * the random generator its event names come from (kept per controller so that adding one does
 * not shift the names of the others).
 */
export function eventRecorder(deps: ControllerDeps, component: string, stream: string): EventRecorder {
  return new EventBroadcaster({ client: deps.client, clock: deps.clock, random: deps.random.fork(stream) }).newRecorder({ component });
}

/** A control loop that sends its requests through the controller's client and records into its trace. */
export function controlLoop(deps: ControllerDeps, options: Omit<ControllerOptions, 'client' | 'clock' | 'trace'>): Controller {
  return new Controller({ ...options, client: deps.client, clock: deps.clock, trace: deps.trace });
}
