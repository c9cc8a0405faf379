/**
 * pods/log: the API server finds the pod and the container (the engine's GET on the log
 * subresource, authorized as such), then reads the container's output from the kubelet of the
 * pod's node (a KubeletLogSource). Where no simulated kubelet runs the node, the facade answers
 * as the kubelet would from the pod's status alone (refusals such as "is waiting to start:
 * ContainerCreating"), with empty output for running containers.
 */
import type { KubeObject } from '../engine/api/types';
import { forbidden, invalid, Path, type ErrorList } from '../engine/api/field';
import { badRequestError, invalidError, StatusError } from '../engine/api/status';
import { goQuote } from '../engine/api/gofmt';
import { logContainerID, type LogOptions } from '../engine/kubelet/logs';
import type { LogStream } from '../engine/kubelet';
import type { Pod, PodStatus } from '../engine/kubelet/api';

export interface PodLogRequest extends LogOptions {
  container: string;
  follow?: boolean;
}

/** The kubelet's answer from the pod's status alone, for a node no simulated kubelet runs. */
export function statusOnlyLogs(pod: KubeObject, request: PodLogRequest): LogStream | StatusError {
  try {
    logContainerID(pod.metadata.name ?? '', ((pod as Pod).status ?? {}) as PodStatus, request.container, request.previous === true);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  return { text: '' };
}

const LOG_INTEGERS = ['sinceSeconds', 'tailLines', 'limitBytes'] as const;

/** ValidatePodLogOptions, as `PodLogOptions "<pod>" is invalid: ...`. */
function validate(o: LogOptions, pod: string): StatusError | undefined {
  const errs: ErrorList = [];
  if (o.tailLines !== undefined && o.tailLines < 0) errs.push(invalid(Path.root('tailLines'), o.tailLines, 'must be greater than or equal to 0'));
  if (o.limitBytes !== undefined && o.limitBytes < 1) errs.push(invalid(Path.root('limitBytes'), o.limitBytes, 'must be greater than 0'));
  if (o.sinceSeconds !== undefined && o.sinceTime !== undefined) errs.push(forbidden(undefined, 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  if (o.sinceSeconds !== undefined && o.sinceSeconds < 1) errs.push(invalid(Path.root('sinceSeconds'), o.sinceSeconds, 'must be greater than 0'));
  return errs.length > 0 ? invalidError({ group: '', name: 'PodLogOptions' }, pod, errs) : undefined;
}

type LogQuery = Omit<PodLogRequest, 'container'> & { container?: string };

/** PodLogOptions from the query, validated as the API server does. */
export function podLogOptions(q: URLSearchParams, pod: string): LogQuery | StatusError {
  const out: LogQuery = {};
  const container = q.get('container');
  if (container) out.container = container;
  const flag = (k: string): boolean | undefined => {
    const v = q.get(k);
    return v === null ? undefined : !(v === '0' || v.toLowerCase() === 'false');
  };
  out.follow = flag('follow');
  out.previous = flag('previous');
  out.timestamps = flag('timestamps');
  const sinceTime = q.get('sinceTime');
  if (sinceTime) out.sinceTime = sinceTime;
  for (const k of LOG_INTEGERS) {
    const v = q.get(k);
    if (v === null) continue;
    if (!/^[+-]?\d+$/.test(v)) return badRequestError(`strconv.ParseInt: parsing ${goQuote(v)}: invalid syntax`);
    out[k] = Number(v);
  }
  return validate(out, pod) ?? out;
}
