/**
 * Label selectors (k8s.io/apimachinery/pkg/labels, release-1.35): the string syntax of
 * `?labelSelector=` and `kubectl -l` with upstream's lexer, parser and error texts, matching,
 * and the canonical String() form; plus metav1.LabelSelector conversion (LabelSelectorAsSelector).
 */
import { FieldError, Path, aggregateMessage } from './field';
import { goQuote } from './gofmt';
import { isQualifiedName, isValidLabelValue } from './names';
import { own } from './own';
import { fail, ok, type Result } from './result';
import type { LabelSelector, LabelSelectorRequirement } from './generated/meta-v1';

/** selection.Operator values. */
export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

const binaryOperators: Operator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

export type Labels = Readonly<Record<string, string>>;

export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: readonly string[];
}

const has = (labels: Labels, key: string): boolean => Object.hasOwn(labels, key);

/** strconv.ParseInt(s, 10, 64). */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

export function requirementMatches(r: Requirement, labels: Labels): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has(labels, r.key) && r.values.includes(own(labels, r.key)!);
    case 'notin':
    case '!=':
      return !has(labels, r.key) || !r.values.includes(own(labels, r.key)!);
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key) || r.values.length !== 1) return false;
      const actual = parseInt64(own(labels, r.key)!);
      const bound = parseInt64(r.values[0]!);
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

const sortedCopy = (values: readonly string[]): string[] => [...values].sort();

export function requirementString(r: Requirement): string {
  const prefix = r.operator === '!' ? '!' : '';
  const ops: Record<Operator, string> = { '=': '=', '==': '==', '!=': '!=', in: ' in ', notin: ' notin ', gt: '>', lt: '<', exists: '', '!': '' };
  if (r.operator === 'exists' || r.operator === '!') return prefix + r.key;
  const values = r.values.length === 1 ? r.values[0]! : sortedCopy(r.values).join(',');
  const list = r.operator === 'in' || r.operator === 'notin' ? `(${values})` : values;
  return prefix + r.key + ops[r.operator] + list;
}

/** A parsed selector; `nothing` matches no object (a nil metav1.LabelSelector). */
export class Selector {
  private constructor(
    readonly requirements: readonly Requirement[],
    readonly nothing: boolean,
  ) {}

  static everything(): Selector {
    return new Selector([], false);
  }

  static nothing(): Selector {
    return new Selector([], true);
  }

  /** The requirements sorted by key, as upstream's Add() keeps them. */
  static of(requirements: readonly Requirement[]): Selector {
    return new Selector(stableSortByKey(requirements), false);
  }

  matches(labels: Labels): boolean {
    return !this.nothing && this.requirements.every((r) => requirementMatches(r, labels));
  }

  empty(): boolean {
    return !this.nothing && this.requirements.length === 0;
  }

  /** The value a requirement pins the key to, for index lookups. */
  requiresExactMatch(key: string): string | undefined {
    const r = this.requirements.find((x) => x.key === key);
    if (!r) return undefined;
    return (r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1 ? r.values[0] : undefined;
  }

  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

function stableSortByKey(requirements: readonly Requirement[]): Requirement[] {
  return requirements
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (a.r.key < b.r.key ? -1 : a.r.key > b.r.key ? 1 : a.i - b.i))
    .map((x) => x.r);
}

/** Field names under an optional parent path; a missing parent prints as "<nil>" (Go's nil *Path). */
const fieldName = (path: Path | undefined): string => (path ? path.toString() : '<nil>');
const childOf = (path: Path | undefined, name: string): Path => (path ? path.child(name) : Path.root(name));

function labelKeyError(key: string, path: Path | undefined): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length > 0 ? new FieldError('FieldValueInvalid', fieldName(path), key, errs.join('; ')) : undefined;
}

/** NewRequirement: a requirement, or the aggregate of its field errors. */
export function newRequirement(key: string, operator: Operator, values: readonly string[] | null, path?: Path): Result<Requirement> {
  const errs: FieldError[] = [];
  const keyErr = labelKeyError(key, childOf(path, 'key'));
  if (keyErr) errs.push(keyErr);
  const valuePath = childOf(path, 'values');
  const vals = values ?? [];
  // A nil list prints as null, an empty one as [] (encoding/json).
  const badValues = values === null ? null : [...values];
  const invalid = (detail: string): FieldError => new FieldError('FieldValueInvalid', valuePath.toString(), badValues, detail);
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0) errs.push(invalid("for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) errs.push(invalid('exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) errs.push(invalid('values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) errs.push(invalid("for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(new FieldError('FieldValueInvalid', valuePath.index(i).toString(), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
  }
  vals.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(new FieldError('FieldValueInvalid', valuePath.index(i).key(key).toString(), v, msgs.join('; ')));
  });
  if (errs.length > 0) return fail(aggregateMessage(errs));
  return ok({ key, operator, values: [...vals] });
}

// --- the string syntax ---------------------------------------------------------------------

type Token =
  | 'error'
  | 'end'
  | ')'
  | ','
  | '!'
  | '=='
  | '='
  | '>'
  | 'identifier'
  | 'in'
  | '<'
  | '!='
  | 'notin'
  | '(';

const literalTokens: ReadonlyMap<string, Token> = new Map<string, Token>([
  [')', ')'],
  [',', ','],
  ['!', '!'],
  ['==', '=='],
  ['=', '='],
  ['>', '>'],
  ['in', 'in'],
  ['<', '<'],
  ['!=', '!='],
  ['notin', 'notin'],
  ['(', '('],
]);

interface Item {
  tok: Token;
  literal: string;
}

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string): boolean => '=!(),><'.includes(ch) && ch.length === 1;

/** Upstream's lexer: a NUL character ends the input, as Go's read() returns 0 at the end. */
class Lexer {
  private pos = 0;
  constructor(private readonly s: string) {}

  private read(): string {
    if (this.pos < this.s.length) return this.s[this.pos++]!;
    return '\0';
  }

  private unread(): void {
    this.pos--;
  }

  private scanIdOrKeyword(): Item {
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === '\0') break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
    }
    return { tok: literalTokens.get(buffer) ?? 'identifier', literal: buffer };
  }

  private scanSpecialSymbol(): Item {
    let last: Item | undefined;
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === '\0') break;
      if (!isSpecialSymbol(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
      const tok = literalTokens.get(buffer);
      if (tok) last = { tok, literal: buffer };
      else if (last) {
        this.unread();
        break;
      }
    }
    return last ?? { tok: 'error', literal: `error expected: keyword found '${buffer}'` };
  }

  lex(): Item {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === '\0') return { tok: 'end', literal: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdOrKeyword();
  }
}

type Context = 'keyAndOperator' | 'values';

class Parser {
  private readonly items: Item[] = [];
  private position = 0;

  constructor(input: string, private readonly path: Path | undefined) {
    const lexer = new Lexer(input);
    for (;;) {
      const item = lexer.lex();
      this.items.push(item);
      if (item.tok === 'end') break;
    }
  }

  /** In a value position the keywords "in" and "notin" are plain identifiers. */
  private view(item: Item, context: Context): Item {
    if (context === 'values' && (item.tok === 'in' || item.tok === 'notin')) return { tok: 'identifier', literal: item.literal };
    return item;
  }

  private lookahead(context: Context): Item {
    return this.view(this.items[Math.min(this.position, this.items.length - 1)]!, context);
  }

  private consume(context: Context): Item {
    const item = this.items[Math.min(this.position, this.items.length - 1)]!;
    this.position++;
    return this.view(item, context);
  }

  parse(): Result<Requirement[]> {
    const requirements: Requirement[] = [];
    for (;;) {
      const { tok, literal } = this.lookahead('values');
      if (tok === 'identifier' || tok === '!') {
        const r = this.parseRequirement();
        if (!r.ok) return fail(`unable to parse requirement: ${r.error}`);
        requirements.push(r.value);
        const next = this.consume('values');
        if (next.tok === 'end') return ok(requirements);
        if (next.tok === ',') {
          const after = this.lookahead('values');
          if (after.tok !== 'identifier' && after.tok !== '!') return fail(`found '${after.literal}', expected: identifier after ','`);
        } else {
          return fail(`found '${next.literal}', expected: ',' or 'end of string'`);
        }
      } else if (tok === 'end') {
        return ok(requirements);
      } else {
        return fail(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): Result<Requirement> {
    const head = this.parseKeyAndInferOperator();
    if (!head.ok) return head;
    const { key, operator } = head.value;
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, [], this.path);
    const op = this.parseOperator();
    if (!op.ok) return op;
    const values = op.value === 'in' || op.value === 'notin' ? this.parseValues() : this.parseExactValue();
    if (!values.ok) return values;
    return newRequirement(key, op.value, [...values.value].sort(), this.path);
  }

  private parseKeyAndInferOperator(): Result<{ key: string; operator: Operator | undefined }> {
    let operator: Operator | undefined;
    let item = this.consume('values');
    if (item.tok === '!') {
      operator = '!';
      item = this.consume('values');
    }
    if (item.tok !== 'identifier') return fail(`found '${item.literal}', expected: identifier`);
    const keyErr = labelKeyError(item.literal, this.path);
    if (keyErr) return fail(keyErr.message);
    const next = this.lookahead('values').tok;
    if ((next === 'end' || next === ',') && operator !== '!') operator = 'exists';
    return ok({ key: item.literal, operator });
  }

  private parseOperator(): Result<Operator> {
    const { tok, literal } = this.consume('keyAndOperator');
    switch (tok) {
      case 'in':
        return ok('in');
      case '=':
        return ok('=');
      case '==':
        return ok('==');
      case '>':
        return ok('gt');
      case '<':
        return ok('lt');
      case 'notin':
        return ok('notin');
      case '!=':
        return ok('!=');
      default:
        return fail(`found '${literal}', expected: ${binaryOperators.join(', ')}`);
    }
  }

  private parseValues(): Result<Set<string>> {
    const open = this.consume('values');
    if (open.tok !== '(') return fail(`found '${open.literal}' expected: '('`);
    const { tok, literal } = this.lookahead('values');
    if (tok === 'identifier' || tok === ',') {
      const s = this.parseIdentifiersList();
      if (!s.ok) return s;
      if (this.consume('values').tok !== ')') return fail(`found '${literal}', expected: ')'`);
      return s;
    }
    if (tok === ')') {
      this.consume('values');
      return ok(new Set(['']));
    }
    return fail(`found '${literal}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): Result<Set<string>> {
    const s = new Set<string>();
    for (;;) {
      const { tok, literal } = this.consume('values');
      if (tok === 'identifier') {
        s.add(literal);
        const next = this.lookahead('values');
        if (next.tok === ',') continue;
        if (next.tok === ')') return ok(s);
        return fail(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (tok === ',') {
        // Empty values between commas or next to a parenthesis stand for "".
        if (s.size === 0) s.add('');
        const next = this.lookahead('values').tok;
        if (next === ')') {
          s.add('');
          return ok(s);
        }
        if (next === ',') s.add('');
        continue;
      }
      return fail(`found '${literal}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): Result<Set<string>> {
    const next = this.lookahead('values').tok;
    if (next === 'end' || next === ',') return ok(new Set(['']));
    const { tok, literal } = this.consume('values');
    if (tok === 'identifier') return ok(new Set([literal]));
    return fail(`found '${literal}', expected: identifier`);
  }
}

/** labels.Parse: the selector, or the error the API server returns as a BadRequest. */
export function parseSelector(selector: string, path?: Path): Result<Selector> {
  const requirements = new Parser(selector, path).parse();
  return requirements.ok ? ok(Selector.of(requirements.value)) : requirements;
}

/** SelectorFromSet: every label must match exactly. */
export function selectorFromSet(set: Labels): Selector {
  return Selector.of(Object.keys(set).map((key) => ({ key, operator: '=' as const, values: [set[key]!] })));
}

// --- metav1.LabelSelector -------------------------------------------------------------------

export type { LabelSelector, LabelSelectorRequirement };

const metaOperators: Record<string, Operator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * LabelSelectorAsSelector: nil selects nothing, an empty selector everything. Upstream walks
 * matchLabels in Go's random map order, so with several bad labels the one reported may
 * differ between runs there; here it is the first in key order.
 */
export function labelSelectorAsSelector(ps: LabelSelector | null | undefined): Result<Selector> {
  if (ps === null || ps === undefined) return ok(Selector.nothing());
  const matchLabels = ps.matchLabels ?? {};
  const expressions = ps.matchExpressions ?? [];
  if (Object.keys(matchLabels).length + expressions.length === 0) return ok(Selector.everything());
  const requirements: Requirement[] = [];
  for (const key of Object.keys(matchLabels).sort()) {
    const r = newRequirement(key, '=', [matchLabels[key]!]);
    if (!r.ok) return r;
    requirements.push(r.value);
  }
  for (const expr of expressions) {
    const op = Object.hasOwn(metaOperators, expr.operator) ? metaOperators[expr.operator] : undefined;
    if (!op) return fail(`${goQuote(expr.operator)} is not a valid label selector operator`);
    const values = expr.values && expr.values.length > 0 ? expr.values : null;
    const r = newRequirement(expr.key, op, values);
    if (!r.ok) return r;
    requirements.push(r.value);
  }
  return ok(Selector.of(requirements));
}

/** A metav1.LabelSelector matches the labels (an unparsable selector matches nothing). */
export function labelSelectorMatches(ps: LabelSelector | null | undefined, labels: Labels): boolean {
  const selector = labelSelectorAsSelector(ps);
  return selector.ok && selector.value.matches(labels);
}
