/**
 * Deprecated APIs (k8s.io/apiserver/pkg/endpoints/deprecation): every request that reaches a
 * deprecated resource's handler, whatever its verb, carries the warning kubectl prints as
 * `Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice`.
 * The texts are the ones 1.35's types declare (prerelease-lifecycle deprecated and replacement
 * tags, or the type's APILifecycle methods).
 */
import type { RequestContext } from './context';

interface Deprecation {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  /** major.minor the API was deprecated in. */
  readonly deprecatedIn: string;
  /** The API to use instead, when there is one: "discovery.k8s.io/v1 EndpointSlice". */
  readonly replacement?: string;
}

const DEPRECATED: readonly Deprecation[] = [
  { group: '', version: 'v1', resource: 'componentstatuses', kind: 'ComponentStatus', deprecatedIn: '1.19' },
  { group: '', version: 'v1', resource: 'endpoints', kind: 'Endpoints', deprecatedIn: '1.33', replacement: 'discovery.k8s.io/v1 EndpointSlice' },
];

/** The warning text: "<group/version> <Kind> is deprecated in v<x.y>+[; use <replacement>]". */
export function deprecationWarning(d: Deprecation): string {
  const gv = d.group ? `${d.group}/${d.version}` : d.version;
  return `${gv} ${d.kind} is deprecated in v${d.deprecatedIn}+${d.replacement ? `; use ${d.replacement}` : ''}`;
}

/** Adds the resource's deprecation warning to the request, if its group-version-resource is deprecated. */
export function warnIfDeprecated(ctx: RequestContext): void {
  const r = ctx.request;
  const d = DEPRECATED.find((x) => x.group === r.group && x.version === r.version && x.resource === r.resource);
  if (d) ctx.warn(deprecationWarning(d));
}
