/**
 * CEL cost, as kube-apiserver measures it: the static estimate of cel-go's checker (checker/
 * cost.go) with the Kubernetes library's call estimates (k8s.io/apiserver/pkg/cel/library/
 * cost.go) and cel-go's ext.Lists estimates, and the runtime cost of one evaluation (cel-go's
 * interpreter/runtimecost.go with the library's CallCost), which kube-apiserver limits per call
 * (`operation cancelled: actual cost limit exceeded`) and per request.
 *
 * The estimate walks the checked AST of the CEL library, which keeps macros as calls: each macro
 * is costed as cel-go's expansion of it (all, exists, exists_one, map, filter, the two-variable
 * comprehensions and cel.bind as comprehensions with their accumulator, loop condition and step).
 * Sizes of variables come from a SizeEstimator by path (`self`, `self.spec`, `self.@items`), as
 * apiextensions-apiserver estimates them from maxLength, maxItems and maxProperties.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { CelRuntimeError } from './values';

export const MAX_UINT64 = (1n << 64n) - 1n;
const TWO_TO_64 = 2 ** 64;

/** cel-go's common/cost.go. */
export const SELECT_AND_IDENT_COST = 1n;
export const CONST_COST = 0n;
export const LIST_CREATE_BASE_COST = 10n;
export const MAP_CREATE_BASE_COST = 30n;
export const STRUCT_CREATE_BASE_COST = 40n;
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

/** k8s.io/apiserver/pkg/apis/cel/config.go */
export const PER_CALL_LIMIT = 1_000_000;
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/** The largest regular expression of a named format (k8s.io/apiserver/pkg/cel/format.go). */
const MAX_NAME_FORMAT_REGEX_SIZE = 128;
const MAX_FORMAT_SIZE = 1;

export interface Range {
  readonly min: bigint;
  readonly max: bigint;
}

const fixed = (n: bigint): Range => ({ min: n, max: n });
const ZERO: Range = fixed(0n);
const UNKNOWN: Range = { min: 0n, max: MAX_UINT64 };

function addU(x: bigint, y: bigint): bigint {
  const s = x + y;
  return s > MAX_UINT64 ? MAX_UINT64 : s;
}
function mulU(x: bigint, y: bigint): bigint {
  const p = x * y;
  return p > MAX_UINT64 ? MAX_UINT64 : p;
}
/** cel-go's multiplyByCostFactor: in float64, rounded up, saturating. */
function mulF(x: bigint, f: number): bigint {
  const xf = Number(x);
  if (xf > 0 && f > 0 && xf > TWO_TO_64 / f) return MAX_UINT64;
  const c = Math.ceil(xf * f);
  if (c >= TWO_TO_64) return MAX_UINT64;
  return BigInt(c);
}
const add = (a: Range, b: Range): Range => ({ min: addU(a.min, b.min), max: addU(a.max, b.max) });
const mul = (a: Range, b: Range): Range => ({ min: mulU(a.min, b.min), max: mulU(a.max, b.max) });
const mulFactor = (a: Range, f: number): Range => ({ min: mulF(a.min, f), max: mulF(a.max, f) });
const union = (a: Range, b: Range): Range => ({ min: a.min < b.min ? a.min : b.min, max: a.max > b.max ? a.max : b.max });

/** The size of the value at a path (`self`, `self.spec`, `self.@items`), where the schema says. */
export interface SizeEstimator {
  estimateSize(path: readonly string[]): Range | undefined;
}

// ---------------------------------------------------------------------------------------------
// types

interface CelType {
  readonly kind: 'list' | 'map' | 'optional' | 'scalar' | 'string' | 'bytes' | 'dyn' | 'struct' | 'type' | 'null';
  readonly name: string;
  readonly params: readonly CelType[];
}

function splitParams(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out.filter((x) => x !== '');
}

const SCALARS = new Set(['bool', 'int', 'uint', 'double', 'google.protobuf.Timestamp', 'google.protobuf.Duration']);

function parseType(name: string | undefined): CelType {
  if (!name) return { kind: 'dyn', name: 'dyn', params: [] };
  const lt = name.indexOf('<');
  const base = lt < 0 ? name : name.slice(0, lt);
  const params = lt < 0 ? [] : splitParams(name.slice(lt + 1, -1)).map(parseType);
  switch (base) {
    case 'list':
      return { kind: 'list', name, params: params.length ? params : [parseType('dyn')] };
    case 'map':
      return { kind: 'map', name, params: params.length ? params : [parseType('dyn'), parseType('dyn')] };
    case 'optional':
      return { kind: 'optional', name, params: params.length ? params : [parseType('dyn')] };
    case 'string':
      return { kind: 'string', name, params };
    case 'bytes':
      return { kind: 'bytes', name, params };
    case 'dyn':
      return { kind: 'dyn', name, params };
    case 'type':
      return { kind: 'type', name, params };
    case 'null':
      return { kind: 'null', name, params };
  }
  if (SCALARS.has(base)) return { kind: 'scalar', name, params };
  return { kind: 'struct', name, params };
}

function nodeType(n: ASTNode): CelType {
  return parseType((n as { checkedType?: { name: string } }).checkedType?.name);
}

function isScalar(t: CelType): boolean {
  if (t.kind === 'scalar') return true;
  if (t.kind === 'optional') return isScalar(t.params[0]!);
  return false;
}

// ---------------------------------------------------------------------------------------------
// the estimator

interface EntrySize {
  readonly container: 'list' | 'map' | 'unknown';
  readonly key: Range;
  readonly val: Range;
}

interface LocalVar {
  readonly path: readonly string[] | undefined;
  readonly size: Range | undefined;
  readonly entry: EntrySize | undefined;
}

/** An operand of a call as the call estimators see it (cel-go's checker.AstNode). */
interface Arg {
  readonly node: ASTNode | undefined;
  readonly type: CelType;
  readonly path: readonly string[] | undefined;
  readonly size: Range | undefined;
}

const ACCUMULATOR = '@result';

const BINARY: Record<string, string> = {
  '+': '_+_', '-': '_-_', '*': '_*_', '/': '_/_', '%': '_%_', '==': '_==_', '!=': '_!=_', '<': '_<_', '<=': '_<=_', '>': '_>_', '>=': '_>=_', in: '@in',
};

type Macro = 'all' | 'exists' | 'exists_one' | 'map' | 'filter' | 'all2' | 'exists2' | 'existsOne2' | 'transformList' | 'transformMap' | 'transformMapEntry' | 'bind' | 'optMap' | 'optFlatMap' | 'has';

/** The macro a call node is, by its name and argument count (cel-go's parser macros and ext). */
function macroOf(n: ASTNode): Macro | undefined {
  if (n.op === 'call') {
    const [name, args] = n.args as [string, ASTNode[]];
    if (name === 'has' && args.length === 1) return 'has';
    return undefined;
  }
  if (n.op !== 'rcall') return undefined;
  const [name, receiver, args] = n.args as [string, ASTNode, ASTNode[]];
  const ns = receiverNamespace(receiver);
  if (ns === 'cel') return name === 'bind' && args.length === 3 ? 'bind' : undefined;
  if (ns !== undefined) return undefined;
  const firstIsId = args[0]?.op === 'id';
  switch (name) {
    case 'all':
      return firstIsId ? (args.length === 2 ? 'all' : args.length === 3 ? 'all2' : undefined) : undefined;
    case 'exists':
      return firstIsId ? (args.length === 2 ? 'exists' : args.length === 3 ? 'exists2' : undefined) : undefined;
    case 'exists_one':
      return firstIsId && args.length === 2 ? 'exists_one' : undefined;
    case 'existsOne':
      return firstIsId ? (args.length === 2 ? 'exists_one' : args.length === 3 ? 'existsOne2' : undefined) : undefined;
    case 'map':
      return firstIsId && (args.length === 2 || args.length === 3) ? 'map' : undefined;
    case 'filter':
      return firstIsId && args.length === 2 ? 'filter' : undefined;
    case 'transformList':
    case 'transformMap':
    case 'transformMapEntry':
      return firstIsId && (args.length === 3 || args.length === 4) ? name : undefined;
    case 'optMap':
    case 'optFlatMap':
      return firstIsId && args.length === 2 ? name : undefined;
  }
  return undefined;
}

/** `sets` of `sets.contains(...)`: the namespace constant a call is made on, if any. */
function receiverNamespace(receiver: ASTNode | undefined): string | undefined {
  if (!receiver || receiver.op !== 'id') return undefined;
  const t = (receiver as { checkedType?: { name: string } }).checkedType?.name ?? '';
  return t.endsWith('Namespace') ? (receiver.args as string) : undefined;
}

const idName = (n: ASTNode): string => (n.op === 'id' ? (n.args as string) : '');

/**
 * The Kubernetes CEL library's functions that k8s.io/apiserver/pkg/cel/library/cost.go prices as
 * one group, in EstimateCallCost and CallCost alike: the switches below take a group's name (a
 * '#' name no function has) in place of each of its functions.
 */
const GROUP_FUNCTIONS = {
  authz: ['serviceAccount', 'path', 'group', 'resource', 'subresource', 'namespace', 'name', 'allowed', 'reason', 'error', 'errored'],
  lists: ['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf', 'includes'],
  net: ['masked', 'prefixLength', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast'],
  quantitySemver: ['sign', 'asInteger', 'isInteger', 'asApproximateFloat', 'isGreaterThan', 'isLessThan', 'compareTo', 'add', 'sub', 'major', 'minor', 'patch'],
  url: ['getScheme', 'getHostname', 'getHost', 'getPort', 'getEscapedPath', 'getQuery'],
} as const;
const GROUP = Object.fromEntries(Object.keys(GROUP_FUNCTIONS).map((g) => [g, `#${g}`])) as { readonly [G in keyof typeof GROUP_FUNCTIONS]: `#${G}` };
const GROUP_OF = new Map<string, string>(Object.entries(GROUP_FUNCTIONS).flatMap(([g, fns]) => fns.map((fn) => [fn, `#${g}`] as const)));
const groupOf = (fn: string): string => GROUP_OF.get(fn) ?? fn;

class Coster {
  private readonly paths = new Map<ASTNode, readonly string[]>();
  private readonly sizes = new Map<ASTNode, Range>();
  private readonly entries = new Map<ASTNode, EntrySize>();
  private readonly locals = new Map<string, LocalVar[]>();

  constructor(
    private readonly estimator: SizeEstimator | undefined,
    private readonly presenceTestCost: Range,
  ) {}

  // --- scopes
  private push(name: string, v: LocalVar): void {
    const s = this.locals.get(name) ?? [];
    s.push(v);
    this.locals.set(name, s);
  }
  private pop(name: string): void {
    this.locals.get(name)?.pop();
  }
  private peek(name: string): LocalVar | undefined {
    const s = this.locals.get(name);
    return s && s.length > 0 ? s[s.length - 1] : undefined;
  }

  private pathOf(n: ASTNode): readonly string[] | undefined {
    if (n.op === 'id') {
      const v = this.peek(idName(n));
      if (v) return v.path;
    }
    return this.paths.get(n);
  }

  private arg(n: ASTNode): Arg {
    let path = this.pathOf(n);
    if (path && path.length > 0 && (path[0] === ACCUMULATOR || path[0] === '__result__')) path = undefined;
    return { node: n, type: nodeType(n), path, size: this.computeSize(n) };
  }

  private sizeOrUnknown(n: ASTNode | Arg): Range {
    if ('node' in n && !('op' in n)) return n.size ?? UNKNOWN;
    return this.computeSize(n as ASTNode) ?? UNKNOWN;
  }

  private computeSize(n: ASTNode): Range | undefined {
    const hit = this.sizes.get(n);
    if (hit) return hit;
    const lit = literalSize(n);
    if (lit) return lit;
    const path = this.pathOf(n);
    if (path && path.length > 0 && this.estimator) {
      const s = this.estimator.estimateSize(path);
      if (s) {
        this.sizes.set(n, s);
        return s;
      }
    }
    if (isScalar(nodeType(n))) return fixed(1n);
    if (n.op === 'id') {
      const v = this.peek(idName(n));
      if (v?.size) return v.size;
    }
    return undefined;
  }

  private computeEntry(n: ASTNode): EntrySize | undefined {
    const hit = this.entries.get(n);
    if (hit) return hit;
    if (n.op === 'id') return this.peek(idName(n))?.entry;
    return undefined;
  }

  private setSize(n: ASTNode, s: Range | undefined): void {
    if (s) this.sizes.set(n, s);
  }

  cost(n: ASTNode): Range {
    switch (n.op) {
      case 'value':
        return fixed(CONST_COST);
      case 'id':
        return this.costIdent(n);
      case '.':
        return this.costSelect(n);
      case 'list':
        return this.costList(n);
      case 'map':
        return this.costMap(n);
      case 'call':
      case 'rcall': {
        const m = macroOf(n);
        if (m) return this.costMacro(n, m);
        return this.costFunction(n);
      }
      default:
        return this.costOperator(n);
    }
  }

  private costIdent(n: ASTNode): Range {
    const name = idName(n);
    const v = this.peek(name);
    this.paths.set(n, v?.path ?? [name]);
    // type names (int, string, ...) are constants
    if (!v && nodeType(n).kind === 'type') return fixed(CONST_COST);
    return fixed(SELECT_AND_IDENT_COST);
  }

  private costSelect(n: ASTNode): Range {
    const [operand, field] = n.args as [ASTNode, string];
    let sum = this.cost(operand);
    const k = nodeType(operand).kind;
    if (k === 'map' || k === 'struct') sum = add(sum, fixed(SELECT_AND_IDENT_COST));
    const p = this.pathOf(operand);
    this.paths.set(n, [...(p ?? []), field]);
    return sum;
  }

  private costList(n: ASTNode): Range {
    const elems = n.args as ASTNode[];
    let sum = ZERO;
    let item: Range = { min: elems.length === 0 ? 0n : MAX_UINT64, max: 0n };
    for (const e of elems) {
      sum = add(sum, this.cost(e));
      item = union(item, this.sizeOrUnknown(e));
    }
    this.entries.set(n, { container: 'list', key: fixed(1n), val: item });
    return add(sum, fixed(LIST_CREATE_BASE_COST));
  }

  private costMap(n: ASTNode): Range {
    const entries = n.args as [ASTNode, ASTNode][];
    let sum = ZERO;
    let key: Range = { min: entries.length === 0 ? 0n : MAX_UINT64, max: 0n };
    let val: Range = { min: entries.length === 0 ? 0n : MAX_UINT64, max: 0n };
    for (const [k, v] of entries) {
      sum = add(sum, this.cost(k));
      sum = add(sum, this.cost(v));
      key = union(key, this.sizeOrUnknown(k));
      val = union(val, this.sizeOrUnknown(v));
    }
    this.entries.set(n, { container: 'map', key, val });
    return add(sum, fixed(MAP_CREATE_BASE_COST));
  }

  /** Operators: cel-go calls with the operator's function name. */
  private costOperator(n: ASTNode): Range {
    switch (n.op) {
      case '&&':
      case '||': {
        const [l, r] = n.args as [ASTNode, ASTNode];
        const lc = this.cost(l);
        const rc = this.cost(r);
        return { min: lc.min, max: add(lc, rc).max };
      }
      case '?:': {
        const [c, t, f] = n.args as [ASTNode, ASTNode, ASTNode];
        const cc = this.cost(c);
        const tc = this.cost(t);
        const fc = this.cost(f);
        const te = this.computeEntry(t);
        const fe = this.computeEntry(f);
        if (te && fe) this.entries.set(n, { container: te.container, key: union(te.key, fe.key), val: union(te.val, fe.val) });
        this.setSize(n, union(this.sizeOrUnknown(t), this.sizeOrUnknown(f)));
        return add(cc, union(tc, fc));
      }
      case '!_':
      case '-_': {
        const a = n.args as ASTNode;
        // cel-go's parser reads -1 and -1.0 as literals
        if (n.op === '-_' && isNumberLiteral(a)) return fixed(CONST_COST);
        return add(fixed(1n), this.cost(a));
      }
      case '.?':
      case '[?]':
      case '[]': {
        const [operand, index] = n.args as [ASTNode, ASTNode | string];
        let sum = this.cost(operand);
        if (typeof index !== 'string') sum = add(sum, this.cost(index));
        sum = add(sum, fixed(1n));
        if (n.op === '[]') {
          const k = nodeType(operand).kind;
          if (k === 'list' || k === 'map') {
            const p = this.pathOf(operand);
            this.paths.set(n, [...(p ?? []), k === 'list' ? '@items' : '@values']);
            const entry = this.computeEntry(operand);
            if (entry) this.setSize(n, entry.val);
          }
        }
        if (!this.sizes.has(n)) this.setSize(n, this.computeSize(n));
        return sum;
      }
    }
    const fn = BINARY[n.op];
    const [l, r] = n.args as [ASTNode, ASTNode];
    const lc = this.cost(l);
    const rc = this.cost(r);
    const args = [this.arg(l), this.arg(r)];
    const est = this.functionCost(n, fn ?? n.op, undefined, args, [lc, rc]);
    this.setSize(n, est.size ?? this.computeSize(n));
    return est.cost;
  }

  private costFunction(n: ASTNode): Range {
    let name: string;
    let target: ASTNode | undefined;
    let argNodes: ASTNode[];
    if (n.op === 'call') {
      [name, argNodes] = n.args as [string, ASTNode[]];
    } else {
      const [fn, receiver, args] = n.args as [string, ASTNode, ASTNode[]];
      const ns = receiverNamespace(receiver);
      if (ns !== undefined) {
        name = `${ns}.${fn}`;
        argNodes = args;
      } else {
        name = fn;
        target = receiver;
        argNodes = args;
      }
    }
    if (name === 'dyn' && !target && argNodes.length === 1) {
      const c = this.cost(argNodes[0]!);
      this.setSize(n, this.computeSize(argNodes[0]!));
      const e = this.computeEntry(argNodes[0]!);
      if (e) this.entries.set(n, e);
      return add(fixed(1n), c);
    }
    const argCosts = argNodes.map((a) => this.cost(a));
    const args = argNodes.map((a) => this.arg(a));
    let sum = ZERO;
    let t: Arg | undefined;
    if (target) {
      sum = this.cost(target);
      t = this.arg(target);
    }
    const est = this.functionCost(n, name, t, args, argCosts);
    this.setSize(n, est.size ?? this.computeSize(n));
    return add(sum, est.cost);
  }

  private functionCost(n: ASTNode, fn: string, target: Arg | undefined, args: Arg[], argCosts: Range[]): { cost: Range; size?: Range } {
    const argSum = argCosts.reduce(add, ZERO);
    const lists = listsEstimate(this, fn, target, args);
    if (lists) return { cost: add(lists.cost, argSum), size: lists.size };
    const k8s = this.k8sEstimate(fn, target, args);
    if (k8s) return { cost: add(k8s.cost, argSum), size: k8s.size };
    const size = (a: Arg): Range => a.size ?? this.estimateByPath(a) ?? UNKNOWN;
    const tk = target?.type.kind;
    switch (fn) {
      case 'format':
        if (target && tk === 'string') return { cost: add(mulFactor(size(target), STRING_TRAVERSAL_COST_FACTOR), argSum) };
        break;
      case 'bytes':
        if (!target && args.length === 1 && args[0]!.type.kind === 'string') {
          const sz = size(args[0]!);
          return { cost: add(mulFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argSum), size: { min: sz.min, max: mulU(sz.max, 4n) } };
        }
        break;
      case 'string':
        if (!target && args.length === 1 && args[0]!.type.kind === 'bytes') {
          const sz = size(args[0]!);
          return { cost: add(mulFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argSum), size: { min: sz.min / 4n, max: sz.max } };
        }
        break;
      case 'strings.quote':
        if (args.length === 1) {
          const sz = size(args[0]!);
          return { cost: add(mulFactor(sz, STRING_TRAVERSAL_COST_FACTOR), argSum), size: { min: addU(sz.min, 2n), max: addU(mulU(sz.max, 2n), 2n) } };
        }
        break;
      case 'startsWith':
      case 'endsWith':
        if (target && tk === 'string' && args.length === 1) return { cost: add(mulFactor(size(args[0]!), STRING_TRAVERSAL_COST_FACTOR), argSum) };
        break;
      case '@in':
        if (args.length === 2 && args[1]!.type.kind === 'list') return { cost: add(mulFactor(size(args[1]!), 1), argSum) };
        break;
      case 'matches': {
        const [str, re] = target ? [target, args[0]] : [args[0], args[1]];
        if (str && re && str.type.kind === 'string') {
          const strCost = mulFactor(add(size(str), fixed(1n)), STRING_TRAVERSAL_COST_FACTOR);
          const reCost = mulFactor(size(re), REGEX_STRING_LENGTH_COST_FACTOR);
          return { cost: add(mul(strCost, reCost), argSum) };
        }
        break;
      }
      case 'contains':
        if (target && tk === 'string' && args.length === 1) {
          const strCost = mulFactor(size(target), STRING_TRAVERSAL_COST_FACTOR);
          const subCost = mulFactor(size(args[0]!), STRING_TRAVERSAL_COST_FACTOR);
          return { cost: add(mul(strCost, subCost), argSum) };
        }
        break;
      case '_+_': {
        const [l, r] = args as [Arg, Arg];
        const lk = l.type.kind;
        if (lk === 'string' || lk === 'bytes' || lk === 'list') {
          const resultSize = add(size(l), size(r));
          const le = l.node ? this.computeEntry(l.node) : undefined;
          const re = r.node ? this.computeEntry(r.node) : undefined;
          if (le && re) this.entries.set(n, { container: le.container, key: union(le.key, re.key), val: union(le.val, re.val) });
          if (lk === 'list') return { cost: add(fixed(1n), argSum), size: resultSize };
          return { cost: add(mulFactor(resultSize, STRING_TRAVERSAL_COST_FACTOR), argSum), size: resultSize };
        }
        break;
      }
      case '_<_':
      case '_>_':
      case '_<=_':
      case '_>=_':
      case '_==_':
      case '_!=_': {
        const [l, r] = args as [Arg, Arg];
        const ordered = fn !== '_==_' && fn !== '_!=_';
        if (ordered && !((l.type.kind === 'string' && r.type.kind === 'string') || (l.type.kind === 'bytes' && r.type.kind === 'bytes'))) break;
        const ls = size(l);
        const rs = size(r);
        const smallest = ls.max < rs.max ? ls.max : rs.max;
        const c = mulFactor({ min: smallest > 0n ? 1n : 0n, max: smallest }, STRING_TRAVERSAL_COST_FACTOR);
        return { cost: add(c, argSum) };
      }
    }
    return { cost: add(fixed(1n), argSum) };
  }

  /** The size of an operand by its path alone (library sizeEstimate after ComputedSize). */
  estimateByPath(a: Arg): Range | undefined {
    if (!a.path || a.path.length === 0 || !this.estimator) return undefined;
    return this.estimator.estimateSize(a.path);
  }

  /** k8s.io/apiserver/pkg/cel/library/cost.go EstimateCallCost. */
  private k8sEstimate(fn: string, target: Arg | undefined, args: Arg[]): { cost: Range; size?: Range } | undefined {
    const sz = (a: Arg): Range => a.size ?? this.estimateByPath(a) ?? UNKNOWN;
    const tname = target?.type.name ?? '';
    const authz = tname.startsWith('kubernetes.authorization.');
    switch (groupOf(fn)) {
      case 'check':
        if (authz) return { cost: fixed(350000n) };
        break;
      case GROUP.authz:
        if (authz) return { cost: fixed(1n) };
        break;
      case 'fieldSelector':
      case 'labelSelector':
        if (authz && args.length === 1) return { cost: selectorCost(sz(args[0]!)) };
        break;
      case GROUP.lists:
        if (target) {
          let el = fixed(1n);
          if (target.type.kind === 'list') {
            const elType = target.type.params[0]!;
            const elNode: Arg = { node: undefined, type: elType, path: target.path ? [...target.path, '@items'] : undefined, size: undefined };
            if (elType.kind === 'string' || elType.kind === 'bytes') el = add(el, mulFactor(sz(elNode), STRING_TRAVERSAL_COST_FACTOR));
            return { cost: mul(sz(target), el) };
          }
          if (fn === 'includes') return { cost: mul(sz(target), el) };
          return { cost: mulFactor(sz(target), STRING_TRAVERSAL_COST_FACTOR) };
        }
        break;
      case 'url':
        if (!target && args.length === 1) {
          const s = sz(args[0]!);
          return { cost: mulFactor(s, STRING_TRAVERSAL_COST_FACTOR), size: s };
        }
        break;
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim':
        if (target) {
          const s = sz(target);
          return { cost: mulFactor(s, STRING_TRAVERSAL_COST_FACTOR), size: s };
        }
        break;
      case 'replace':
        if (target && args.length >= 2) {
          const s = sz(target);
          const toReplace = sz(args[0]!);
          const replaceWith = sz(args[1]!);
          // One bound of the result: how many replacements at most (or least), and what of the
          // string is kept as it is. An empty match replaces between every character; a
          // replacement no longer than what it replaces cannot grow the string.
          const bound = (sv: bigint, divisor: bigint, noGrowth: boolean): [count: bigint, retained: bigint] => {
            if (divisor === 0n) return [sv < MAX_UINT64 ? sv + 1n : sv, sv];
            if (noGrowth) return [0n, sv];
            return [BigInt(Math.ceil(Number(sv) / Number(divisor))), 0n];
          };
          const [countMax, retainedMax] = bound(s.max, toReplace.min, replaceWith.max <= toReplace.min);
          const [countMin, retainedMin] = bound(s.min, toReplace.max, toReplace.max <= replaceWith.min);
          const size = add(mul({ min: countMin, max: countMax }, replaceWith), { min: retainedMin, max: retainedMax });
          return { cost: mulFactor(s, 2 * STRING_TRAVERSAL_COST_FACTOR), size };
        }
        break;
      case 'split':
        if (target && target.type.kind === 'string') {
          const s = sz(target);
          let max = s.max;
          const limit = args[1]?.node;
          if (limit && limit.op === 'value' && typeof limit.args === 'bigint') max = BigInt.asUintN(64, limit.args as bigint);
          return { cost: mulFactor(s, 2 * STRING_TRAVERSAL_COST_FACTOR), size: { min: 0n, max } };
        }
        break;
      case 'join':
        if (target) {
          let s = ZERO;
          const list = sz(target);
          if (target.type.kind === 'list') {
            const elNode: Arg = { node: undefined, type: target.type.params[0]!, path: target.path ? [...target.path, '@items'] : undefined, size: undefined };
            s = mul(list, sz(elNode));
          }
          if (args.length > 0) {
            const sep = sz(args[0]!);
            s = add(s, mul(sep, { min: list.min > 0n ? list.min - 1n : 0n, max: list.max > 0n ? list.max - 1n : 0n }));
          }
          return { cost: mulFactor(s, STRING_TRAVERSAL_COST_FACTOR), size: s };
        }
        break;
      case 'find':
      case 'findAll':
        if (target && args.length >= 1) {
          const s = sz(target);
          const strCost = mulFactor(add(s, fixed(1n)), STRING_TRAVERSAL_COST_FACTOR);
          const reCost = mulFactor(sz(args[0]!), REGEX_STRING_LENGTH_COST_FACTOR);
          return { cost: mul(strCost, reCost), size: { min: 0n, max: s.max } };
        }
        break;
      case 'cidr':
      case 'isIP':
      case 'isCIDR':
        if (!target && args.length >= 1) return { cost: mulFactor(sz(args[0]!), STRING_TRAVERSAL_COST_FACTOR) };
        break;
      case 'ip':
        if (target && tname === 'net.CIDR') return { cost: fixed(1n) };
        if (!target && args.length >= 1) return { cost: mulFactor(sz(args[0]!), STRING_TRAVERSAL_COST_FACTOR) };
        break;
      case 'ip.isCanonical':
        if (args.length >= 1) return { cost: mulFactor(sz(args[0]!), 2 * STRING_TRAVERSAL_COST_FACTOR) };
        break;
      case GROUP.net:
        if (tname.startsWith('net.')) return { cost: fixed(1n) };
        break;
      case 'containsIP':
      case 'containsCIDR':
        if (target && args.length >= 1) {
          const s: Range = { min: 4n, max: 16n };
          let c = mulFactor(add(s, s), STRING_TRAVERSAL_COST_FACTOR);
          if (fn === 'containsCIDR') c = add(add(c, mulFactor(s, STRING_TRAVERSAL_COST_FACTOR)), fixed(1n));
          if (args[0]!.type.kind === 'string') c = add(c, mulFactor(sz(args[0]!), STRING_TRAVERSAL_COST_FACTOR));
          return { cost: c };
        }
        break;
      case 'quantity':
      case 'isQuantity':
      case 'semver':
      case 'isSemver':
        if (!target && args.length >= 1) return { cost: mulFactor(sz(args[0]!), STRING_TRAVERSAL_COST_FACTOR) };
        break;
      case 'validate':
        if (target && tname === 'kubernetes.NamedFormat' && args.length >= 1) {
          return { cost: mulFactor(mulFactor(sz(args[0]!), STRING_TRAVERSAL_COST_FACTOR), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR) };
        }
        break;
      case 'format.named':
        return { cost: fixed(1n) };
      case GROUP.quantitySemver:
        if (tname === 'kubernetes.Quantity' || tname === 'kubernetes.Semver') return { cost: fixed(1n) };
        break;
      case GROUP.url:
        if (tname === 'kubernetes.URL') return { cost: fixed(1n) };
        break;
      case '_==_': {
        const [l, r] = args as [Arg, Arg];
        if (l && r && l.type.name === r.type.name) {
          switch (l.type.name) {
            case 'net.IP':
            case 'net.CIDR':
            case 'kubernetes.Quantity':
            case 'kubernetes.Semver':
            case 'kubernetes.authorization.Authorizer':
            case 'kubernetes.authorization.PathCheck':
            case 'kubernetes.authorization.GroupCheck':
            case 'kubernetes.authorization.ResourceCheck':
            case 'kubernetes.authorization.Decision':
              return { cost: fixed(1n) };
            case 'kubernetes.NamedFormat':
              return { cost: mulFactor({ min: 1n, max: BigInt(MAX_FORMAT_SIZE) }, STRING_TRAVERSAL_COST_FACTOR) };
            case 'kubernetes.URL': {
              let s = fixed(1n);
              if (r.size) s = union(r.size, r.size);
              return { cost: mulFactor({ min: 1n, max: s.max }, STRING_TRAVERSAL_COST_FACTOR) };
            }
          }
        }
        break;
      }
    }
    return undefined;
  }

  // --- macros, costed as cel-go expands them

  private pushIter(name: string, range: ASTNode, which: 'single' | 'key' | 'value'): void {
    const entry = this.computeEntry(range);
    let container: 'list' | 'map' | 'unknown' = entry?.container ?? 'unknown';
    if (container === 'unknown') {
      const k = nodeType(range).kind;
      container = k === 'list' ? 'list' : k === 'map' ? 'map' : 'unknown';
    }
    const path = this.pathOf(range) ?? [];
    let size: Range | undefined;
    let sub: string;
    if (which === 'single') {
      size = entry?.key;
      sub = '@keys';
      if (container === 'list') {
        size = entry?.val;
        sub = '@items';
      }
    } else if (which === 'key') {
      size = entry?.key;
      sub = container === 'list' ? '@indices' : '@keys';
    } else {
      size = entry?.val;
      sub = container === 'list' ? '@items' : '@values';
    }
    this.push(name, { path: [...path, sub], size, entry: undefined });
  }

  /**
   * One comprehension: range, accumulator init, per-element loop condition and step, result.
   * `loop` and `step` give the cost of cel-go's generated loop condition and step around the
   * macro's own predicate/transform costs; `resultCost` the generated result expression.
   */
  private comprehension(
    n: ASTNode,
    range: ASTNode,
    vars: [string] | [string, string],
    init: { cost: Range; literal: boolean; entry?: EntrySize },
    body: (c: Coster) => { loop: Range; step: Range; stepEntry?: EntrySize },
    resultCost: Range,
  ): Range {
    let sum = this.cost(range);
    sum = add(sum, init.cost);
    this.push(ACCUMULATOR, { path: [ACCUMULATOR], size: init.literal ? fixed(1n) : fixed(0n), entry: init.entry });
    if (vars.length === 2) {
      this.pushIter(vars[0], range, 'key');
      this.pushIter(vars[1], range, 'value');
    } else this.pushIter(vars[0], range, 'single');
    const { loop, step, stepEntry } = body(this);
    this.pop(vars[0]);
    if (vars.length === 2) this.pop(vars[1]);
    sum = add(sum, resultCost);
    this.pop(ACCUMULATOR);
    const rangeCnt = this.sizeOrUnknown(range);
    sum = add(sum, mul(rangeCnt, add(step, loop)));
    if (init.literal) this.setSize(n, fixed(1n));
    else {
      this.setSize(n, rangeCnt);
      if (stepEntry) this.entries.set(n, stepEntry);
    }
    return sum;
  }

  private costMacro(n: ASTNode, m: Macro): Range {
    if (m === 'has') {
      const [, [arg]] = n.args as [string, [ASTNode]];
      // has(x.f): the presence test plus its operand
      const operand = arg!.op === '.' || arg!.op === '.?' ? arg!.args[0] : arg!;
      return add(this.presenceTestCost, this.cost(operand));
    }
    const [, receiver, args] = n.args as [string, ASTNode, ASTNode[]];
    const accu = fixed(SELECT_AND_IDENT_COST);
    const listEntry = (val: Range): EntrySize => ({ container: 'list', key: fixed(1n), val });
    switch (m) {
      case 'all':
      case 'all2':
      case 'exists':
      case 'exists2': {
        const vars = (m === 'all' || m === 'exists' ? [idName(args[0]!)] : [idName(args[0]!), idName(args[1]!)]) as [string] | [string, string];
        const pred = args[vars.length]!;
        const isAll = m === 'all' || m === 'all2';
        return this.comprehension(n, receiver, vars, { cost: fixed(CONST_COST), literal: true }, (c) => {
          // all: @not_strictly_false(accu), accu && p; exists: @not_strictly_false(!accu), accu || p
          const loop = isAll ? add(fixed(1n), accu) : add(fixed(1n), add(fixed(1n), accu));
          const pc = c.cost(pred);
          return { loop, step: { min: accu.min, max: add(accu, pc).max } };
        }, accu);
      }
      case 'exists_one':
      case 'existsOne2': {
        const vars = (m === 'exists_one' ? [idName(args[0]!)] : [idName(args[0]!), idName(args[1]!)]) as [string] | [string, string];
        const pred = args[vars.length]!;
        // step: p ? accu + 1 : accu; result: accu == 1
        return this.comprehension(n, receiver, vars, { cost: fixed(CONST_COST), literal: true }, (c) => {
          const pc = c.cost(pred);
          return { loop: ZERO, step: add(pc, union(add(fixed(1n), accu), accu)) };
        }, add(fixed(1n), mulFactor(fixed(1n), STRING_TRAVERSAL_COST_FACTOR)));
      }
      case 'map':
      case 'filter':
      case 'transformList': {
        const two = m === 'transformList';
        const vars = (two ? [idName(args[0]!), idName(args[1]!)] : [idName(args[0]!)]) as [string] | [string, string];
        const rest = args.slice(vars.length);
        const filterOnly = m === 'filter';
        const pred = filterOnly ? rest[0] : rest.length === 2 ? rest[0] : undefined;
        const transform = filterOnly ? undefined : rest[rest.length - 1]!;
        const emptyList: EntrySize = listEntry(ZERO);
        return this.comprehension(n, receiver, vars, { cost: fixed(LIST_CREATE_BASE_COST), literal: false, entry: emptyList }, (c) => {
          const pc = pred ? c.cost(pred) : ZERO;
          // accu + [t] (filter: accu + [x])
          const elemCost = transform ? c.cost(transform) : accu;
          const elemSize = transform ? c.sizeOrUnknown(transform) : c.sizeOrUnknown(args[0]!);
          const append = add(add(fixed(1n), accu), add(elemCost, fixed(LIST_CREATE_BASE_COST)));
          const step = pred ? add(pc, union(append, accu)) : append;
          return { loop: ZERO, step, stepEntry: listEntry(union(ZERO, elemSize)) };
        }, accu);
      }
      case 'transformMap':
      case 'transformMapEntry': {
        const vars = [idName(args[0]!), idName(args[1]!)] as [string, string];
        const rest = args.slice(2);
        const pred = rest.length === 2 ? rest[0] : undefined;
        const transform = rest[rest.length - 1]!;
        const emptyMap: EntrySize = { container: 'map', key: ZERO, val: ZERO };
        return this.comprehension(n, receiver, vars, { cost: fixed(MAP_CREATE_BASE_COST), literal: false, entry: emptyMap }, (c) => {
          const pc = pred ? c.cost(pred) : ZERO;
          // cel.@mapInsert(accu, k, t) or cel.@mapInsert(accu, e)
          const tc = c.cost(transform);
          const insert = m === 'transformMap' ? add(add(fixed(1n), accu), add(fixed(SELECT_AND_IDENT_COST), tc)) : add(add(fixed(1n), accu), tc);
          const step = pred ? add(pc, union(insert, accu)) : insert;
          return { loop: ZERO, step };
        }, accu);
      }
      case 'bind': {
        // cel.bind(v, init, e): a comprehension over [] with v as its accumulator
        const v = idName(args[0]!);
        let sum = fixed(LIST_CREATE_BASE_COST);
        sum = add(sum, this.cost(args[1]!));
        this.push(v, { path: this.pathOf(args[1]!), size: this.computeSize(args[1]!), entry: this.computeEntry(args[1]!) });
        sum = add(sum, this.cost(args[2]!));
        this.pop(v);
        this.setSize(n, this.computeSize(args[2]!));
        const e = this.computeEntry(args[2]!);
        if (e) this.entries.set(n, e);
        return sum;
      }
      case 'optMap':
      case 'optFlatMap': {
        // x.hasValue() ? optional.of(cel.bind(v, x.value(), t)) : optional.none()
        const v = idName(args[0]!);
        const rc = this.cost(receiver);
        const hasValue = add(fixed(1n), rc);
        const value = add(fixed(1n), rc);
        this.push(v, { path: undefined, size: undefined, entry: undefined });
        const tc = this.cost(args[1]!);
        this.pop(v);
        let truthy = add(add(fixed(LIST_CREATE_BASE_COST), value), tc);
        if (m === 'optMap') truthy = add(fixed(1n), truthy);
        return add(hasValue, union(truthy, fixed(1n)));
      }
    }
    return ZERO;
  }
}

const isNumberLiteral = (a: ASTNode): boolean => a.op === 'value' && (typeof a.args === 'bigint' || typeof a.args === 'number');

function literalSize(n: ASTNode): Range | undefined {
  switch (n.op) {
    case '-_':
      return isNumberLiteral(n.args as ASTNode) ? fixed(1n) : undefined;
    case 'value': {
      const v = n.args as unknown;
      if (typeof v === 'string') return fixed(BigInt([...v].length));
      if (v instanceof Uint8Array) return fixed(BigInt(v.length));
      return fixed(1n);
    }
    case 'list':
      return fixed(BigInt((n.args as unknown[]).length));
    case 'map':
      return fixed(BigInt((n.args as unknown[]).length));
  }
  return undefined;
}

function selectorCost(len: Range): Range {
  const parse = mulFactor(len, STRING_TRAVERSAL_COST_FACTOR);
  const requirements = mulFactor(len, 0.5);
  const reqCost = mulFactor(requirements, Number(LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST));
  return add(add(fixed(LIST_CREATE_BASE_COST), parse), reqCost);
}

/** cel-go ext.Lists (v3) estimators. */
function listsEstimate(c: Coster, fn: string, target: Arg | undefined, args: Arg[]): { cost: Range; size: Range } | undefined {
  const sz = (a: Arg): Range => a.size ?? c.estimateByPath(a) ?? UNKNOWN;
  const allocating = (factor: number, size: Range): { cost: Range; size: Range } => ({ cost: add(add(mulFactor(size, factor), fixed(1n)), fixed(LIST_CREATE_BASE_COST)), size });
  const intArg = (a: Arg | undefined, dflt: bigint): bigint => (a?.node?.op === 'value' && typeof a.node.args === 'bigint' ? BigInt.asUintN(64, a.node.args as bigint) : dflt);
  if (fn === 'lists.range' && !target && args.length === 1) return allocating(1, fixed(intArg(args[0], MAX_UINT64)));
  if (!target || target.type.kind !== 'list') return undefined;
  switch (fn) {
    case 'slice': {
      if (args.length !== 2) return undefined;
      const s = sz(target);
      const start = intArg(args[0], 0n);
      const end = intArg(args[1], s.max);
      return allocating(1, fixed(end - start < 0n ? 0n : end - start));
    }
    case 'reverse':
      return args.length === 0 ? allocating(1, sz(target)) : undefined;
    case 'flatten': {
      if (args.length > 1) return undefined;
      const depth = args.length === 1 ? intArg(args[0], MAX_UINT64) : 1n;
      return allocating(Number(depth), sz(target));
    }
    case 'distinct': {
      if (args.length !== 0) return undefined;
      const s = sz(target);
      return allocating(2, mul(s, s));
    }
    case 'sort':
    case 'sortBy': {
      const node = fn === 'sort' ? target : undefined;
      if (!node) return undefined;
      const s = sz(node);
      const el = target.type.params[0]!;
      const factor = 2 + (el.kind === 'string' || el.kind === 'bytes' ? STRING_TRAVERSAL_COST_FACTOR : 0);
      return allocating(factor, mul(s, s));
    }
  }
  return undefined;
}

/** cel-go's static cost estimate of a checked expression (Kubernetes: has() costs nothing). */
export function estimateCost(ast: ASTNode, estimator?: SizeEstimator): Range {
  return new Coster(estimator, ZERO).cost(ast);
}

// ---------------------------------------------------------------------------------------------
// runtime cost

/** The runtime cost limit was passed: cel-go's EvalCancelledError. */
export class CostLimitExceeded extends CelRuntimeError {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

/** The runtime cost of evaluations of one program, with cel-go's per-call limit. */
export class CostTracker {
  cost = 0;
  /** Results of a macro's predicates and transforms while it runs (per node). */
  readonly collecting = new Map<ASTNode, unknown[]>();
  readonly values = new Map<ASTNode, unknown>();
  /** Set once the limit is passed: every further step fails at once (macros absorb errors). */
  cancelled: CostLimitExceeded | undefined;
  constructor(readonly limit: number | undefined) {}
  charge(n: number): void {
    this.cost += n;
    if (this.limit !== undefined && this.cost > this.limit) throw (this.cancelled ??= new CostLimitExceeded());
  }
}

let current: CostTracker | undefined;

/** Runs `f` with `tracker` measuring the instrumented programs it evaluates. */
export function withTracker<T>(tracker: CostTracker, f: () => T): T {
  const saved = current;
  current = tracker;
  try {
    return f();
  } finally {
    current = saved;
  }
}

/** cel-go's actualSize: strings by code points, bytes, lists and maps by length, else 1. */
export function actualSize(v: unknown): number {
  if (typeof v === 'string') {
    let n = 0;
    for (const _ of v) n++;
    return n;
  }
  if (v instanceof Uint8Array) return v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (v instanceof Optional) return v.hasValue() ? actualSize(v.value()) : 1;
  if (v && typeof v === 'object' && (v.constructor === Object || v.constructor === undefined)) return Object.keys(v).length;
  return 1;
}

function traversalCost(v: unknown): number {
  if (typeof v === 'string') return Math.floor(v.length * STRING_TRAVERSAL_COST_FACTOR);
  if (v instanceof Uint8Array) return Math.floor(v.length * STRING_TRAVERSAL_COST_FACTOR);
  if (Array.isArray(v)) return v.reduce((s: number, x) => s + traversalCost(x), 0);
  if (v instanceof Map) {
    let s = 0;
    for (const [k, x] of v) s += traversalCost(k) + traversalCost(x);
    return s;
  }
  if (v && typeof v === 'object' && (v.constructor === Object || v.constructor === undefined)) {
    let s = 0;
    for (const [k, x] of Object.entries(v)) s += traversalCost(k) + traversalCost(x);
    return s;
  }
  return 1;
}

const ceilF = (x: number, f: number): number => Math.ceil(x * f);

/** The runtime cost of one call, given its arguments (the receiver first) and result. */
function callCost(fn: string, args: unknown[], result: unknown, receiverType: string | undefined): number {
  const authz = receiverType?.startsWith('kubernetes.authorization.') ?? false;
  switch (groupOf(fn)) {
    case 'check':
      if (authz) return 350000;
      break;
    case GROUP.authz:
      if (authz) return 1;
      break;
    case 'fieldSelector':
    case 'labelSelector':
      if (authz && args.length >= 2) {
        const l = BigInt(actualSize(args[1]));
        return Number(selectorCost(fixed(l)).max);
      }
      break;
    case GROUP.lists:
      if (args.length > 0) return traversalCost(args[0]);
      break;
    case 'url':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
      if (args.length >= 1) return ceilF(actualSize(args[0]), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'replace':
    case 'split':
      if (args.length >= 1) return ceilF(actualSize(args[0]), 2 * STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'join':
      if (args.length >= 1) return ceilF(actualSize(result), 2 * STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'find':
    case 'findAll':
      if (args.length >= 2) return ceilF(1 + actualSize(args[0]), STRING_TRAVERSAL_COST_FACTOR) * ceilF(actualSize(args[1]), REGEX_STRING_LENGTH_COST_FACTOR);
      break;
    case 'ip':
      if (receiverType === 'net.CIDR') return 1;
      if (args.length >= 1) return ceilF(actualSize(args[0]), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'ip.isCanonical':
      if (args.length >= 1) return ceilF(actualSize(args[0]), 2 * STRING_TRAVERSAL_COST_FACTOR);
      break;
    case GROUP.net:
      return 1;
    case 'containsIP':
    case 'containsCIDR':
      if (args.length >= 2) {
        const cidrSize = actualSize(args[0]);
        let c = ceilF(cidrSize + cidrSize, STRING_TRAVERSAL_COST_FACTOR);
        if (fn === 'containsCIDR') c += ceilF(cidrSize, STRING_TRAVERSAL_COST_FACTOR) + 1;
        if (typeof args[1] === 'string') c += ceilF(actualSize(args[1]), STRING_TRAVERSAL_COST_FACTOR);
        return c;
      }
      break;
    case 'validate':
      if (args.length >= 2) {
        const re = (args[0] as { maxRegexSize?: number }).maxRegexSize ?? MAX_NAME_FORMAT_REGEX_SIZE;
        return ceilF(1 + actualSize(args[1]), STRING_TRAVERSAL_COST_FACTOR) * ceilF(re, REGEX_STRING_LENGTH_COST_FACTOR);
      }
      break;
    case 'format.named':
    case GROUP.quantitySemver:
    case GROUP.url:
      return 1;
    case '_==_':
      if (args.length === 2) {
        const l = args[0];
        if (l && typeof l === 'object' && !Array.isArray(l) && !(l instanceof Uint8Array) && !(l instanceof Map) && l.constructor !== Object && l.constructor !== undefined && !(l instanceof Date) && !(l instanceof Optional)) return 1;
      }
      break;
  }
  // cel-go's defaults
  switch (fn) {
    case 'startsWith':
    case 'endsWith':
      return ceilF(actualSize(args[args.length - 1]), STRING_TRAVERSAL_COST_FACTOR);
    case 'format':
    case 'strings.quote':
      return ceilF(actualSize(args[0]), STRING_TRAVERSAL_COST_FACTOR);
    case 'bytes':
      if (typeof args[0] === 'string') return ceilF(actualSize(args[0]), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'string':
      if (args[0] instanceof Uint8Array) return ceilF(actualSize(args[0]), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case '@in':
      if (Array.isArray(args[1])) return actualSize(args[1]);
      break;
    case '_<_':
    case '_>_':
    case '_<=_':
    case '_>=_':
      if ((typeof args[0] === 'string' && typeof args[1] === 'string') || (args[0] instanceof Uint8Array && args[1] instanceof Uint8Array)) return ceilF(Math.min(actualSize(args[0]), actualSize(args[1])), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case '_==_':
    case '_!=_':
      return ceilF(Math.min(actualSize(args[0]), actualSize(args[1])), STRING_TRAVERSAL_COST_FACTOR);
    case '_+_':
      if ((typeof args[0] === 'string' && typeof args[1] === 'string') || (args[0] instanceof Uint8Array && args[1] instanceof Uint8Array)) return ceilF(actualSize(args[0]) + actualSize(args[1]), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'matches':
      if (args.length === 2) return ceilF(1 + actualSize(args[0]), STRING_TRAVERSAL_COST_FACTOR) * ceilF(actualSize(args[1]), REGEX_STRING_LENGTH_COST_FACTOR);
      break;
    case 'contains':
      if (typeof args[0] === 'string' && args.length === 2) return ceilF(actualSize(args[0]), STRING_TRAVERSAL_COST_FACTOR) * ceilF(actualSize(args[1]), STRING_TRAVERSAL_COST_FACTOR);
      break;
    case 'slice':
    case 'reverse':
    case 'distinct':
    case 'sort':
    case 'flatten':
    case 'lists.range':
      if (Array.isArray(result)) return result.length + 1 + Number(LIST_CREATE_BASE_COST);
      break;
  }
  return 1;
}

interface Meta {
  evaluate(ev: unknown, ast: ASTNode, ctx: unknown): unknown;
  alternate?: ASTNode;
  macro?: { evaluate(ev: unknown, m: unknown, ctx: unknown): unknown };
}
type Node = ASTNode & { meta: Meta; evaluate(ev: unknown, ast: ASTNode, ctx: unknown): unknown; [INSTRUMENTED]?: true };
const INSTRUMENTED = Symbol('cost');

const isConst = (n: ASTNode): boolean => n.op === 'value' || (n.op === '-_' && isNumberLiteral(n.args as ASTNode));

/** What an evaluation of a node costs on its own (its children charge themselves). */
function nodePlan(n: ASTNode): { kind: 'fixed'; cost: number } | { kind: 'call'; fn: string; args: ASTNode[]; receiver?: ASTNode } | { kind: 'macro'; macro: Macro } {
  switch (n.op) {
    case 'value':
      return { kind: 'fixed', cost: 0 };
    case 'id':
      return { kind: 'fixed', cost: nodeType(n).kind === 'type' || (nodeType(n).name.endsWith('Namespace')) ? 0 : 1 };
    case '.':
    case '.?':
      return { kind: 'fixed', cost: 1 };
    case '[]':
    case '[?]':
      // a constant index is a qualifier of the attribute; a variable one costs only its own evaluation
      return { kind: 'fixed', cost: isConst((n.args as [ASTNode, ASTNode])[1]) ? 1 : 0 };
    case '&&':
    case '||':
    case '?:':
      return { kind: 'fixed', cost: 0 };
    case 'list': {
      const elems = n.args as ASTNode[];
      return { kind: 'fixed', cost: elems.every(isConst) ? 0 : Number(LIST_CREATE_BASE_COST) };
    }
    case 'map': {
      const entries = n.args as [ASTNode, ASTNode][];
      return { kind: 'fixed', cost: entries.every(([k, v]) => isConst(k) && isConst(v)) ? 0 : Number(MAP_CREATE_BASE_COST) };
    }
    case '!_':
    case '-_': {
      const a = n.args as ASTNode;
      if (isConst(n)) return { kind: 'fixed', cost: 0 };
      return { kind: 'call', fn: n.op, args: [a] };
    }
    case 'call':
    case 'rcall': {
      const m = macroOf(n);
      if (m) return { kind: 'macro', macro: m };
      if (n.op === 'call') {
        const [name, args] = n.args as [string, ASTNode[]];
        if (args.every(isConst)) return { kind: 'fixed', cost: 0 };
        return { kind: 'call', fn: name, args };
      }
      const [name, receiver, args] = n.args as [string, ASTNode, ASTNode[]];
      const ns = receiverNamespace(receiver);
      if (ns !== undefined) {
        if (args.every(isConst)) return { kind: 'fixed', cost: 0 };
        return { kind: 'call', fn: `${ns}.${name}`, args };
      }
      if (isConst(receiver) && args.every(isConst)) return { kind: 'fixed', cost: 0 };
      return { kind: 'call', fn: name, args, receiver };
    }
  }
  const fn = BINARY[n.op];
  if (fn) {
    const [l, r] = n.args as [ASTNode, ASTNode];
    return { kind: 'call', fn, args: [l, r] };
  }
  return { kind: 'fixed', cost: 0 };
}

/** The expressions a macro runs per element, and cel-go's cost of its generated loop per result. */
function macroBody(n: ASTNode, m: Macro): { body: ASTNode | undefined; pred: ASTNode | undefined; receiver: ASTNode | undefined } {
  if (m === 'has' || m === 'bind') return { body: undefined, pred: undefined, receiver: undefined };
  const [, receiver, args] = n.args as [string, ASTNode, ASTNode[]];
  const vars = m === 'all2' || m === 'exists2' || m === 'existsOne2' || m === 'transformList' || m === 'transformMap' || m === 'transformMapEntry' ? 2 : 1;
  const rest = args.slice(vars);
  switch (m) {
    case 'all':
    case 'all2':
    case 'exists':
    case 'exists2':
    case 'exists_one':
    case 'existsOne2':
    case 'filter':
      return { body: undefined, pred: rest[0], receiver };
    default:
      return { body: rest[rest.length - 1], pred: rest.length === 2 ? rest[0] : undefined, receiver };
  }
}

function rangeLength(v: unknown): number {
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (v && typeof v === 'object') return Object.keys(v).length;
  return 0;
}

/** The cost cel-go's expansion of a macro adds around the macro's own expressions. */
function macroOverhead(m: Macro, preds: unknown[] | undefined, bodies: number, rangeLen: number, hasQualifiers = 0): number {
  const p = preds ?? [];
  switch (m) {
    case 'has':
      // the selections above the tested field (cel-js evaluates only the chain's root as a node)
      return hasQualifiers;
    case 'bind':
      return 0;
    case 'all':
    case 'all2': {
      // @not_strictly_false(accu) (2) and accu && p (1) per element; the result (1)
      let c = 3 * p.length + 1;
      if (p.length < rangeLen && p[p.length - 1] === false) c += 2;
      return c;
    }
    case 'exists':
    case 'exists2': {
      let c = 4 * p.length + 1;
      if (p.length < rangeLen && p[p.length - 1] === true) c += 3;
      return c;
    }
    case 'exists_one':
    case 'existsOne2':
      // p ? accu + 1 : accu, where the bare accumulator branch costs nothing
      return p.reduce((s: number, x) => s + (x === true ? 2 : 0), 0) + 2;
    case 'map':
    case 'transformList':
    case 'filter': {
      const append = 12 + (m === 'filter' ? 1 : 0);
      if (preds) return p.reduce((s: number, x) => s + (x === true ? append : 0), 0) + 1;
      return append * bodies + 1;
    }
    case 'transformMap':
    case 'transformMapEntry': {
      const insert = m === 'transformMap' ? 3 : 2;
      if (preds) return p.reduce((s: number, x) => s + (x === true ? insert : 0), 0) + 1;
      return insert * bodies + 1;
    }
    case 'optMap':
    case 'optFlatMap':
      return 2 + (m === 'optMap' ? 1 : 0);
  }
  return 0;
}

/** How many field selections a has() argument chains (`a.b.c`: 2). */
function selectDepth(n: ASTNode | undefined): number {
  let d = 0;
  while (n && (n.op === '.' || n.op === '.?')) {
    d++;
    n = n.args[0];
  }
  return d;
}

function children(n: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const visit = (a: unknown): void => {
    if (!a || typeof a !== 'object') return;
    if (Array.isArray(a)) {
      for (const x of a) visit(x);
      return;
    }
    if ('op' in a && 'args' in a) out.push(a as ASTNode);
  };
  visit(n.args);
  return out;
}

/**
 * Instruments a checked AST so that evaluations under withTracker() charge cel-go's runtime
 * costs and stop at the tracker's limit. Function calls whose arguments are all literals, and
 * list and map literals of literals, cost nothing, as cel-go's optimizer folds them (operators
 * are charged: `2147483647 + 1` costs 1, as in upstream's cost table). A macro's generated loop
 * is charged when the macro returns, so a limit can be passed by up to one loop's overhead.
 */
export function instrument(root: ASTNode): void {
  const walk = (n: ASTNode): void => {
    const node = n as Node;
    if (node[INSTRUMENTED]) return;
    node[INSTRUMENTED] = true;
    for (const c of children(n)) walk(c);
    const meta = node.meta;
    const inner = (ev: unknown, ast: ASTNode, ctx: unknown): unknown => {
      if (meta.alternate) return (meta.alternate as Node).evaluate(ev, meta.alternate, ctx);
      if (meta.macro) return meta.macro.evaluate(ev, meta.macro, ctx);
      return meta.evaluate(ev, ast, ctx);
    };
    const plan = nodePlan(n);
    const macro = plan.kind === 'macro' ? macroBody(n, plan.macro) : undefined;
    const hasQualifiers = plan.kind === 'macro' && plan.macro === 'has' ? selectDepth((n.args as [string, ASTNode[]])[1][0]) - 1 : 0;
    const receiverType = plan.kind === 'call' && plan.receiver ? nodeType(plan.receiver).name : undefined;
    const account = (t: CostTracker, value: unknown): void => {
      if (plan.kind === 'fixed') {
        if (plan.cost) t.charge(plan.cost);
      } else if (plan.kind === 'call') {
        const args = (plan.receiver ? [plan.receiver, ...plan.args] : plan.args).map((a) => t.values.get(a));
        t.charge(callCost(plan.fn, args, value, receiverType));
      }
      const sink = t.collecting.get(n);
      if (sink) sink.push(value);
      t.values.set(n, value);
    };
    node.evaluate = function instrumented(ev: unknown, ast: ASTNode, ctx: unknown): unknown {
      const t = current;
      if (!t) return inner(ev, ast, ctx);
      if (t.cancelled) throw t.cancelled;
      if (plan.kind === 'macro' && macro) {
        const watch = [macro.pred, macro.body].filter((x): x is ASTNode => x !== undefined);
        const saved = watch.map((w) => t.collecting.get(w));
        for (const w of watch) t.collecting.set(w, []);
        const finish = (value: unknown): unknown => {
          const preds = macro.pred ? t.collecting.get(macro.pred) : undefined;
          const bodies = macro.body ? (t.collecting.get(macro.body)?.length ?? 0) : 0;
          watch.forEach((w, i) => (saved[i] ? t.collecting.set(w, saved[i]!) : t.collecting.delete(w)));
          const rangeLen = macro.receiver ? rangeLength(t.values.get(macro.receiver)) : 0;
          t.charge(macroOverhead(plan.macro, preds, bodies, rangeLen, hasQualifiers));
          account(t, value);
          return value;
        };
        let r: unknown;
        try {
          r = inner(ev, ast, ctx);
        } catch (err) {
          watch.forEach((w, i) => (saved[i] ? t.collecting.set(w, saved[i]!) : t.collecting.delete(w)));
          throw err;
        }
        if (r instanceof Promise) return r.then(finish);
        return finish(r);
      }
      let r: unknown;
      try {
        r = inner(ev, ast, ctx);
      } catch (err) {
        // an error is a value to cel-go: its evaluation is charged as any other
        if (!(err instanceof CostLimitExceeded)) account(t, err);
        throw err;
      }
      if (r instanceof Promise) return r.then((v) => (account(t, v), v));
      account(t, r);
      return r;
    };
  };
  walk(root);
}
