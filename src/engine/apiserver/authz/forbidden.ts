/**
 * The Forbidden error kube-apiserver answers a denied request with
 * (endpoints/handlers/responsewriters.ForbiddenStatusError), word for word:
 *   deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"
 */
import { goQuote } from '../../api/gofmt';
import { forbiddenError, type StatusError } from '../../api/status';
import type { Attributes } from './types';

export function forbiddenMessage(a: Attributes): string {
  const user = goQuote(a.user.username);
  if (!a.isResourceRequest) return `User ${user} cannot ${a.verb} path ${goQuote(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace ${goQuote(a.namespace)}` : 'at the cluster scope';
  return `User ${user} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)} ${scope}`;
}

// Keeps the message from reading as HTML; quotes are fine.
const sanitize = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function forbiddenStatusError(a: Attributes, reason: string): StatusError {
  const msg = sanitize(forbiddenMessage(a));
  return forbiddenError({ group: a.apiGroup, name: a.resource }, a.name, reason ? `${msg}: ${reason}` : msg);
}
