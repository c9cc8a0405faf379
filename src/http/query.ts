/**
 * Query parameters to request options, as the apiserver's parameter codec reads them: booleans
 * are true unless "false" or "0", integers must parse (else 400 with strconv's text), unknown
 * parameters are ignored.
 */
import { goQuote } from '../engine/api/gofmt';
import { badRequestError, StatusError } from '../engine/api/status';
import type { FieldValidation, PropagationPolicy, RequestOptions, ResourceVersionMatch } from '../engine/apiserver/request';
import type { IncludeObject } from '../engine/printers';

export interface QueryOptions {
  options: RequestOptions;
  /** dryRun values other than "All" (the API server's validation rejects them). */
  badDryRun?: string[];
  timeoutSeconds?: number;
  includeObject?: IncludeObject;
}

function bool(v: string): boolean {
  return !(v === '0' || v.toLowerCase() === 'false');
}

function int(v: string): number | StatusError {
  if (!/^[+-]?\d+$/.test(v)) return badRequestError(`strconv.ParseInt: parsing ${goQuote(v)}: invalid syntax`);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) return badRequestError(`strconv.ParseInt: parsing ${goQuote(v)}: value out of range`);
  return n;
}

export function parseQuery(q: URLSearchParams): QueryOptions | StatusError {
  const options: RequestOptions = {};
  const out: QueryOptions = { options };
  const get = (k: string): string | undefined => q.get(k) ?? undefined;

  const dryRun = q.getAll('dryRun');
  if (dryRun.length > 0) {
    if (dryRun.every((v) => v === 'All')) options.dryRun = true;
    else out.badDryRun = dryRun;
  }
  const strings: [keyof RequestOptions, string][] = [
    ['fieldManager', 'fieldManager'],
    ['labelSelector', 'labelSelector'],
    ['fieldSelector', 'fieldSelector'],
    ['continue', 'continue'],
    ['resourceVersion', 'resourceVersion'],
  ];
  for (const [key, param] of strings) {
    const v = get(param);
    if (v !== undefined) (options as Record<string, unknown>)[key] = v;
  }
  const fieldValidation = get('fieldValidation');
  if (fieldValidation !== undefined) options.fieldValidation = fieldValidation as FieldValidation;
  const match = get('resourceVersionMatch');
  if (match !== undefined) options.resourceVersionMatch = match as ResourceVersionMatch;
  const propagation = get('propagationPolicy');
  if (propagation !== undefined) options.propagationPolicy = propagation as PropagationPolicy;
  for (const key of ['force', 'allowWatchBookmarks', 'sendInitialEvents', 'orphanDependents'] as const) {
    const v = get(key);
    if (v !== undefined) options[key] = bool(v);
  }
  for (const key of ['limit', 'gracePeriodSeconds', 'timeoutSeconds'] as const) {
    const v = get(key);
    if (v === undefined) continue;
    const n = int(v);
    if (n instanceof StatusError) return n;
    if (key === 'timeoutSeconds') out.timeoutSeconds = n;
    else options[key] = n;
  }
  const include = get('includeObject');
  if (include !== undefined && include !== '') out.includeObject = include as IncludeObject;
  return out;
}

/** ValidateTableOptions, as a Table conversion checks it. */
export function tableOptionsError(include: string | undefined): StatusError | undefined {
  if (include === undefined || include === 'None' || include === 'Metadata' || include === 'Object') return undefined;
  return badRequestError(`Unable to convert to Table as requested: includeObject: Invalid value: ${goQuote(include)}: must be 'Metadata', 'Object', 'None', or empty`);
}
