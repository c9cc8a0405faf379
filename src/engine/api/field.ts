/**
 * Field paths and field errors in apimachinery's format (k8s.io/apimachinery/pkg/util/
 * validation/field). Every validation message kubesim produces is one of these, so that
 * `spec.replicas: Invalid value: -1: must be greater than or equal to 0` reads exactly as
 * kube-apiserver prints it.
 */
import { goFloat, goJson, goQuote } from './gofmt';

/** An immutable path into an object: `spec.template.spec.containers[0].image`, `metadata.labels[app]`. */
export class Path {
  private constructor(
    private readonly parent: Path | undefined,
    private readonly name: string,
    private readonly subscript: string | undefined,
  ) {}

  static root(name: string, ...more: string[]): Path {
    let p = new Path(undefined, name, undefined);
    for (const m of more) p = p.child(m);
    return p;
  }

  child(name: string, ...more: string[]): Path {
    let p: Path = new Path(this, name, undefined);
    for (const m of more) p = p.child(m);
    return p;
  }

  /** A list element: `[3]`. */
  index(i: number): Path {
    return new Path(this, '', String(i));
  }

  /** A map entry: `[key]`. */
  key(k: string): Path {
    return new Path(this, '', k);
  }

  /** The root of the path (its first element). */
  rootName(): string {
    let p: Path = this;
    while (p.parent) p = p.parent;
    return p.name;
  }

  toString(): string {
    const parts: Path[] = [];
    for (let p: Path | undefined = this; p; p = p.parent) parts.push(p);
    let out = '';
    for (let i = parts.length - 1; i >= 0; i--) {
      const p = parts[i]!;
      if (p.subscript !== undefined) out += `[${p.subscript}]`;
      else out += out.length > 0 ? `.${p.name}` : p.name;
    }
    return out;
  }
}

/** The root path: an error about the whole object has the empty field "". */
export const NoPath: Path | undefined = undefined;

export type ErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** ErrorType.String(): the words a message shows ("Invalid value", "Required value", ...). */
export const errorTypeText: Record<ErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** A bad value that is deliberately not printed (apimachinery's omitValue). */
export const OMIT = Symbol('omitValue');

/**
 * A bad value that prints as %#v of a Go struct would: callers pass the already formatted text.
 * Used where upstream passes a struct without JSON tags or a typed value whose JSON differs.
 */
export class GoValue {
  constructor(readonly text: string) {}
}

export class FieldError {
  constructor(
    readonly type: ErrorType,
    readonly field: string,
    readonly badValue: unknown,
    readonly detail: string,
    /** Which rule produced the error, for tests and tooling (apimachinery's Origin). */
    readonly origin: string = '',
  ) {}

  /** `field: body`, as Error() prints it. */
  get message(): string {
    return `${this.field}: ${this.body()}`;
  }

  toString(): string {
    return this.message;
  }

  /** ErrorBody(): the message without the field name. */
  body(): string {
    let s: string;
    switch (this.type) {
      case 'FieldValueRequired':
      case 'FieldValueForbidden':
      case 'FieldValueTooLong':
      case 'InternalError':
        s = errorTypeText[this.type];
        break;
      default:
        s = this.badValue === OMIT ? errorTypeText[this.type] : `${errorTypeText[this.type]}: ${formatBadValue(this.badValue)}`;
    }
    if (this.detail.length > 0) s += `: ${this.detail}`;
    return s;
  }

  withOrigin(origin: string): FieldError {
    return new FieldError(this.type, this.field, this.badValue, this.detail, origin);
  }
}

export function formatBadValue(v: unknown): string {
  if (v instanceof GoValue) return v.text;
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'bigint') return v.toString();
  return goJson(v);
}

export type ErrorList = FieldError[];

const p = (path: Path | undefined): string => (path ? path.toString() : '');

export function invalid(path: Path | undefined, value: unknown, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', p(path), value, detail);
}

export function typeInvalid(path: Path | undefined, value: unknown, detail: string): FieldError {
  return new FieldError('FieldValueTypeInvalid', p(path), value, detail);
}

export function required(path: Path | undefined, detail = ''): FieldError {
  return new FieldError('FieldValueRequired', p(path), '', detail);
}

export function duplicate(path: Path | undefined, value: unknown): FieldError {
  return new FieldError('FieldValueDuplicate', p(path), value, '');
}

export function notFound(path: Path | undefined, value: unknown): FieldError {
  return new FieldError('FieldValueNotFound', p(path), value, '');
}

export function forbidden(path: Path | undefined, detail: string): FieldError {
  return new FieldError('FieldValueForbidden', p(path), '', detail);
}

export function notSupported(path: Path | undefined, value: unknown, validValues: readonly string[]): FieldError {
  const detail = validValues.length > 0 ? 'supported values: ' + validValues.map((v) => goQuote(v)).join(', ') : '';
  return new FieldError('FieldValueNotSupported', p(path), value, detail);
}

export function tooLong(path: Path | undefined, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return new FieldError('FieldValueTooLong', p(path), '<value omitted>', detail);
}

export function tooMany(path: Path | undefined, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
  return new FieldError('FieldValueTooMany', p(path), actual >= 0 ? actual : OMIT, detail);
}

export function internalError(path: Path | undefined, err: Error | string): FieldError {
  return new FieldError('InternalError', p(path), null, typeof err === 'string' ? err : err.message);
}

/** utilerrors.NewAggregate(list).Error(): one message, or "[a, b]" with duplicates dropped. */
export function aggregateMessage(list: readonly { message: string }[]): string {
  const seen = new Set<string>();
  const msgs: string[] = [];
  for (const e of list) {
    if (seen.has(e.message)) continue;
    seen.add(e.message);
    msgs.push(e.message);
  }
  if (msgs.length === 0) return '';
  if (msgs.length === 1) return msgs[0]!;
  return '[' + msgs.join(', ') + ']';
}

/** ErrorList.ToAggregate dedupes by message before aggregation. */
export function dedupe(list: ErrorList): ErrorList {
  const seen = new Set<string>();
  return list.filter((e) => (seen.has(e.message) ? false : (seen.add(e.message), true)));
}
