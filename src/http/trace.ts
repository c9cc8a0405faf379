/**
 * Requests the facade refuses before the API server sees them (unreadable query parameters or
 * bodies, media types it cannot read or write) still leave their api.request record, so every
 * HTTP request shows in the trace. The user is the token's holder, if any.
 */
import type { StatusError } from '../engine/api/status';
import type { RequestInfo } from '../engine/apiserver/request-info';
import type { ApiRequestRecord } from '../engine/trace/apiserver';
import type { Exchange } from './context';

export function traceRefusal(x: Exchange, info: RequestInfo, err: StatusError): void {
  const api = x.facade.api;
  const user = api.tokens.authenticate(x.token);
  api.trace.emit<ApiRequestRecord>({
    type: 'api.request',
    component: 'kube-apiserver',
    user: user?.username ?? '',
    groups: user?.groups ?? [],
    verb: info.verb,
    group: info.apiGroup,
    version: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource || undefined,
    namespace: info.namespace || undefined,
    name: info.name || undefined,
    dryRun: false,
    code: err.code,
    reason: err.reason,
    message: err.message,
    stages: [{ stage: 'decode', verdict: 'rejected', detail: err.message }],
  });
}
