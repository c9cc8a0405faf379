/**
 * The result of a plugin at an extension point (framework.Status). A null status is Success, as
 * upstream's nil *Status is, so the hot filter loop allocates nothing for nodes that pass.
 */

export enum Code {
  Success = 0,
  Error = 1,
  /** The pod does not fit this node, but preemption might change that. */
  Unschedulable = 2,
  /** The pod does not fit this node and preemption cannot help. */
  UnschedulableAndUnresolvable = 3,
  Wait = 4,
  /** The plugin has nothing to do for this pod: its later extension points are not run. */
  Skip = 5,
  /** The pod waits for something outside the scheduler; requeued without backoff once it arrives. */
  Pending = 6,
}

export const CODE_NAMES: Readonly<Record<Code, string>> = {
  [Code.Success]: 'Success',
  [Code.Error]: 'Error',
  [Code.Unschedulable]: 'Unschedulable',
  [Code.UnschedulableAndUnresolvable]: 'UnschedulableAndUnresolvable',
  [Code.Wait]: 'Wait',
  [Code.Skip]: 'Skip',
  [Code.Pending]: 'Pending',
};

/** How much of a resource a pod asked for against what a node had (NodeResourcesFit's InsufficientResource). */
export interface InsufficientAmount {
  /** cpu (in millicores), memory and ephemeral-storage (bytes), pods, or an extended resource. */
  readonly resource: string;
  readonly requested: number;
  readonly used: number;
  readonly capacity: number;
}

export class Status {
  /** The plugin that produced this status (set by the framework). */
  plugin = '';
  /** NodeResourcesFit's amounts behind its "Insufficient cpu" reasons, kept for the attempt's record. */
  insufficient?: readonly InsufficientAmount[];

  constructor(
    readonly code: Code,
    readonly reasons: readonly string[] = [],
  ) {}

  /** Message(): the reasons joined with ", ". */
  message(): string {
    return this.reasons.join(', ');
  }

  isRejected(): boolean {
    return this.code === Code.Unschedulable || this.code === Code.UnschedulableAndUnresolvable || this.code === Code.Pending;
  }

  withPlugin(plugin: string): Status {
    this.plugin = plugin;
    return this;
  }
}

export const newStatus = (code: Code, ...reasons: string[]): Status => new Status(code, reasons);

export const errorStatus = (message: string): Status => new Status(Code.Error, [message]);

export const isSuccess = (s: Status | null): s is null => s === null || s.code === Code.Success;

/** A shared Skip status: plugins return it from PreFilter/PreScore when a pod needs nothing from them. */
export const SKIP: Status = Object.freeze(new Status(Code.Skip)) as Status;

/** An internal error inside a plugin; the framework turns it into an Error status. */
export class PluginError extends Error {}
