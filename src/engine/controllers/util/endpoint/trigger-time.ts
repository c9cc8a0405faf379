/**
 * endpoints.kubernetes.io/last-change-trigger-time: when the change that this write of a
 * Service's endpoints reflects happened. The first sync of a Service reports its creation; later
 * syncs the earliest Ready transition (or Service creation) newer than what the last sync saw,
 * and nothing when nothing new triggered the write. Shared by the EndpointSlice and Endpoints
 * controllers.
 */
import { podReadyCondition } from './pod';
import type { Pod, Service } from '../types/endpoint';

interface ServiceState {
  serviceTime: number | undefined;
  podTimes: Map<string, number>;
}

function parseTime(s: string | null | undefined): number | undefined {
  if (!s) return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : ms;
}

/** time.RFC3339Nano in UTC: fractional seconds without trailing zeros. */
export function formatTriggerTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d*?)0*Z$/, (_m, frac: string) => (frac ? `.${frac}Z` : 'Z'));
}

export class TriggerTimeTracker {
  private readonly states = new Map<string, ServiceState>();

  /** The trigger time to write now (RFC 3339), or undefined to clear the annotation. */
  compute(service: Service, pods: readonly Pod[]): string | undefined {
    const key = `${service.metadata.namespace ?? ''}/${service.metadata.name ?? ''}`;
    const state = this.states.get(key);
    let min: number | undefined;
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const t = parseTime(podReadyCondition(pod)?.lastTransitionTime);
      if (t === undefined) continue;
      podTimes.set(pod.metadata.name ?? '', t);
      const last = state?.podTimes.get(pod.metadata.name ?? '');
      if (last === undefined || t > last) min = min === undefined ? t : Math.min(min, t);
    }
    const serviceTime = parseTime(service.metadata.creationTimestamp);
    if (serviceTime !== undefined && (state?.serviceTime === undefined || serviceTime > state.serviceTime)) {
      min = min === undefined ? serviceTime : Math.min(min, serviceTime);
    }
    this.states.set(key, { serviceTime, podTimes });
    if (!state) return serviceTime === undefined ? undefined : formatTriggerTime(serviceTime);
    return min === undefined ? undefined : formatTriggerTime(min);
  }

  deleteService(namespace: string, name: string): void {
    this.states.delete(`${namespace}/${name}`);
  }
}
