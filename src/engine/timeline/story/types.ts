/**
 * The story of an apply: what one request set in motion, told step by step the way a person
 * explains it (request, authentication, authorization, admission, validation, the etcd write,
 * each controller that reacted, the objects it wrote, the scheduler's choice for each pod, the
 * kubelet's steps, Ready, the EndpointSlice), each step with its virtual time, its actor, one
 * sentence of what happened and why, and the trace records it was told from.
 */
import type { RequestStage } from '../../trace/apiserver';

/** The request, the API server's pipeline stages (its storage stage is the story's etcd step), then what the write set in motion. */
export type StoryPhase =
  | 'request'
  | Exclude<RequestStage, 'storage'>
  | 'etcd'
  | 'controller'
  | 'written'
  | 'scheduler'
  | 'kubelet'
  | 'ready'
  | 'endpoints'
  | 'available';

/**
 * done: it happened; retried: it failed in a way the loop retries (a 409 Conflict) and a later
 * try succeeded, which is normal; waiting: it has not finished yet (a pull in progress, a
 * retry pending); stopped: it could not happen (unschedulable, an image that cannot be pulled,
 * a rejected request), and the story stops there for what depends on it.
 */
export type StepState = 'done' | 'retried' | 'waiting' | 'stopped';

export interface StoryItem {
  readonly time: number;
  readonly text: string;
  readonly state: StepState;
  readonly records: readonly number[];
}

export interface StoryStep {
  readonly phase: StoryPhase;
  /** "Authorization", "Deployment controller", "Pods written", "Scheduler". */
  readonly title: string;
  /** Virtual ms of the step's first record. */
  readonly time: number;
  /** Who acted: kube-apiserver, etcd, deployment-controller, kube-scheduler, kubelet/<node>. */
  readonly actor: string;
  /** One plain sentence: what happened and why. */
  readonly text: string;
  readonly state: StepState;
  /** The trace records the step is told from (for links), in id order. */
  readonly records: readonly number[];
  /** "namespace/name" of the pod a per-pod step is about. */
  readonly pod?: string;
  /** The parts of a step (each kubelet action, each scheduling attempt, each plugin). */
  readonly items?: readonly StoryItem[];
}

export type StoryState = 'complete' | 'in-progress' | 'stopped';

export interface PodSummary {
  /** "namespace/name". */
  readonly pod: string;
  readonly node?: string;
  /** Where the pod is in its story: the last step's phase and state. */
  readonly phase: StoryPhase;
  readonly state: StepState;
  /** Virtual ms it became Ready, if it did. */
  readonly readyAt?: number;
  /** It was deleted in this story (an old ReplicaSet's pod in a rollout). */
  readonly deleted: boolean;
}

export interface Story {
  /** The request the story starts from. */
  readonly root: number;
  /** "kubernetes-admin applied Deployment default/web". */
  readonly title: string;
  readonly start: number;
  readonly steps: readonly StoryStep[];
  readonly pods: readonly PodSummary[];
  readonly state: StoryState;
  /** Where it stands, in one sentence: done in 4.5s, stopped at ..., waiting for .... */
  readonly outcome: string;
  /** Records of the causal chain the story does not tell (Events, reads, syncs that changed nothing). */
  readonly untold: number;
  /** Records in the causal chain, the root included. */
  readonly chain: number;
}
