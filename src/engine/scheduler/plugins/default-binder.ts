/** DefaultBinder (Bind): POST pods/binding through the host, as system:kube-scheduler. */
import type { PodInfo } from '../cache/pod-info';
import type { CycleState } from '../framework/cycle-state';
import type { BindPlugin, Handle } from '../framework/interface';
import { errorStatus, type Status } from '../framework/status';
import { Names } from './names';

export class DefaultBinder implements BindPlugin {
  readonly name = Names.DefaultBinder;

  constructor(private readonly handle: Handle) {}

  async bind(_state: CycleState, pod: PodInfo, nodeName: string): Promise<Status | null> {
    try {
      await this.handle.host.bind(pod.pod, nodeName);
      return null;
    } catch (err) {
      return errorStatus(err instanceof Error ? err.message : String(err));
    }
  }
}
