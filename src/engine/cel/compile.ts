/**
 * Compiling a CEL expression as kube-apiserver does (cel-go's env.Compile): cel-go's parser
 * first (syntax/parse.ts, its own ANTLR grammar, so syntax errors read as cel-go's), then the CEL
 * library's parser and type checker, whose errors are reported in cel-go's words at cel-go's
 * positions (`undeclared reference to 'x' (in container '')`, `found no matching overload for
 * '_+_' applied to '(int, string)'`). The program evaluates the checked expression.
 */
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { formatIssues, type CelIssue } from './issues';
import { parseSyntax } from './syntax/parse';
import { celError, CelRuntimeError } from './values';
import { instrument } from './cost';

export type CompileResult =
  | { readonly ok: true; readonly program: CelProgram; readonly outputType: string; readonly outputLibraryType: string; readonly ast: ASTNode }
  | { readonly ok: false; readonly error: string; readonly issues: readonly CelIssue[] };

interface CheckResult {
  valid: boolean;
  type?: string;
  error?: LibraryError;
}
interface LibraryError extends Error {
  code?: string;
  node?: ASTNode & { checkedType?: { name: string } };
  range?: { start: number; end: number };
}
type Parsed = ((ctx?: Record<string, unknown>) => unknown) & { ast: ASTNode; check(): CheckResult };

/** cel-go's name for a type of the CEL library (list(int), map(string, dyn), optional_type(T)). */
export function celTypeName(name: string): string {
  return name
    .replace(/google\.protobuf\.Timestamp/g, 'timestamp')
    .replace(/google\.protobuf\.Duration/g, 'duration')
    .replace(/\boptional</g, 'optional_type<')
    .replace(/\bnull\b/g, 'null_type')
    .replace(/</g, '(')
    .replace(/>/g, ')');
}

/** cel-go's FormatCELType for an argument list: `null` rather than `null_type`. */
function argTypeName(name: string): string {
  return celTypeName(name).replace(/\bnull_type\b/g, 'null');
}

const BINARY_FUNCTIONS: Record<string, string> = {
  '+': '_+_', '-': '_-_', '*': '_*_', '/': '_/_', '%': '_%_', '==': '_==_', '!=': '_!=_', '<': '_<_', '<=': '_<=_', '>': '_>_', '>=': '_>=_',
  in: '@in', '&&': '_&&_', '||': '_||_',
};

/** Skips whitespace, comments and closing parentheses from `i`. */
function skipFiller(src: string, i: number): number {
  for (;;) {
    while (i < src.length && /[\s)]/.test(src[i]!)) i++;
    if (src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    return i;
  }
}

/** Where cel-go places a node's errors: operators at the operator, calls at their parenthesis. */
export function celOffset(src: string, node: ASTNode): number {
  const args = node.args as unknown;
  switch (node.op) {
    case 'call': {
      const name = (args as [string])[0];
      return skipFiller(src, node.start + name.length);
    }
    case 'rcall': {
      const [name, receiver] = args as [string, ASTNode];
      let i = skipFiller(src, receiver.end) + 1;
      i = skipFiller(src, i) + name.length;
      return skipFiller(src, i);
    }
    case '.':
    case '.?':
    case '[]':
    case '[?]':
      return skipFiller(src, (args as [ASTNode])[0].end);
    case '?:':
      return skipFiller(src, (args as [ASTNode])[0].end);
    default:
      if (BINARY_FUNCTIONS[node.op] && Array.isArray(args) && args.length === 2) return skipFiller(src, (args[0] as ASTNode).end);
      return node.start;
  }
}

function typeName(node: ASTNode | undefined): string {
  const t = (node as { checkedType?: { name: string } } | undefined)?.checkedType;
  return t ? argTypeName(t.name) : 'dyn';
}

/** A type error of the CEL library in cel-go's words, at cel-go's position. */
function checkIssue(src: string, err: LibraryError): CelIssue {
  const node = err.node;
  const at = node ? celOffset(src, node) : (err.range?.start ?? 0);
  const summary = (err as { summary?: string }).summary ?? err.message.split('\n')[0]!;
  const args = node?.args as unknown;
  switch (err.code) {
    case 'unknown_variable':
      return { offset: at, message: `undeclared reference to '${summary.replace(/^Unknown variable: /, '')}' (in container '')` };
    case 'no_such_overload': {
      if (node && (node.op === '-_' || node.op === '!_')) return { offset: at, message: `found no matching overload for '${node.op}' applied to '(${typeName(args as ASTNode)})'` };
      if (node && BINARY_FUNCTIONS[node.op] && Array.isArray(args)) {
        return { offset: at, message: `found no matching overload for '${BINARY_FUNCTIONS[node.op]}' applied to '(${typeName(args[0] as ASTNode)}, ${typeName(args[1] as ASTNode)})'` };
      }
      break;
    }
    case 'no_matching_overload': {
      const m = /found no matching overload for '(?:(.+)\.)?(\w+)\((.*)\)'/.exec(summary);
      if (m) {
        const list = m[3] ? m[3].split(/,\s*(?![^<]*>)/).map(argTypeName).join(', ') : '';
        const target = m[1] ? `${argTypeName(m[1])}.` : '';
        return { offset: at, message: `found no matching overload for '${m[2]}' applied to '${target}(${list})'` };
      }
      break;
    }
    case 'invalid_logical_operand':
      if (node && Array.isArray(args)) return { offset: at, message: `found no matching overload for '${BINARY_FUNCTIONS[node.op]}' applied to '(${typeName(args[0] as ASTNode)}, ${typeName(args[1] as ASTNode)})'` };
      break;
    case 'invalid_condition_type':
    case 'incompatible_ternary_branches':
      if (node?.op === '?:' && Array.isArray(args)) {
        return { offset: at, message: `found no matching overload for '_?_:_' applied to '(${args.map((a) => typeName(a as ASTNode)).join(', ')})'` };
      }
      break;
    case 'heterogeneous_list_element':
    case 'heterogeneous_map_key':
    case 'heterogeneous_map_value': {
      const m = /expected type '(.+)' but found '(.+)'/.exec(summary);
      if (m) return { offset: at, message: `expected type '${argTypeName(m[1]!)}' but found '${argTypeName(m[2]!)}'` };
      break;
    }
    case 'no_such_key':
      return { offset: at, message: `undefined field '${summary.replace(/^No such key: /, '')}'` };
    case 'cannot_index_type': {
      const m = /Cannot index type '(.+)'/.exec(summary);
      if (m && node && (node.op === '.' || node.op === '.?')) return { offset: at, message: `type '${argTypeName(m[1]!)}' does not support field selection` };
      if (m && node && Array.isArray(args)) return { offset: at, message: `found no matching overload for '_[_]' applied to '(${typeName(args[0] as ASTNode)}, ${typeName(args[1] as ASTNode)})'` };
      break;
    }
    case 'invalid_index_type':
      if (node && Array.isArray(args)) return { offset: at, message: `found no matching overload for '_[_]' applied to '(${typeName(args[0] as ASTNode)}, ${typeName(args[1] as ASTNode)})'` };
      break;
  }
  return { offset: at, message: summary };
}

/** The CEL library cannot parse what cel-go can: say so, in cel-go's frame. */
function unsupportedIssue(err: LibraryError): CelIssue {
  const summary = (err as { summary?: string }).summary ?? err.message.split('\n')[0]!;
  return { offset: err.range?.start ?? err.node?.start ?? 0, message: `unsupported syntax (kubesim's CEL library: ${summary})` };
}

/** cel-go checks on past a type error (the node's type becomes an error) and reports them all. */
const MAX_TYPE_ERRORS = 32;

/**
 * Every type error of an expression, as cel-go reports them (sorted by position). The CEL
 * library stops at its first error, so the erroneous node is replaced by an identifier of the
 * same length declared dyn (`_`, `__`, ...: positions stay where they were, and a dyn operand
 * raises no further error, as cel-go's error type does not) and the expression checked again.
 */
function allCheckIssues(env: Environment, expression: string, first: LibraryError): CelIssue[] {
  const issues: CelIssue[] = [checkIssue(expression, first)];
  let text = expression;
  let err: LibraryError | undefined = first;
  let scope: Environment | undefined;
  const replaced: [number, number][] = [];
  for (let i = 1; i < MAX_TYPE_ERRORS * 4 && issues.length < MAX_TYPE_ERRORS && err?.node; i++) {
    const { start, end } = err.node;
    replaced.push([start, end]);
    if (!(end > start) || /^_+$/.test(text.slice(start, end))) break;
    const name = '_'.repeat(end - start);
    text = text.slice(0, start) + name + text.slice(end);
    scope ??= env.clone();
    if (!scope.hasVariable(name)) scope.registerVariable(name, 'dyn');
    let again: Parsed;
    try {
      again = scope.parse(text) as Parsed;
    } catch {
      break;
    }
    const r = again.check();
    if (r.valid) break;
    err = r.error;
    // a placeholder that is itself refused (an element of a homogeneous literal) ends the search
    if (!err || (err.node && err.node.start === start && err.node.end === end)) break;
    // a node over an earlier error has cel-go's error type, which raises nothing more
    const n = err.node;
    if (n && replaced.some(([a, b]) => a >= n.start && b <= n.end)) continue;
    issues.push(checkIssue(text, err));
  }
  const seen = new Set<string>();
  return issues
    .filter((x) => (seen.has(`${x.offset}:${x.message}`) ? false : (seen.add(`${x.offset}:${x.message}`), true)))
    .sort((a, b) => a.offset - b.offset);
}

export interface CompileOptions {
  /** cel-go names of the types the expression may evaluate to; any when absent. */
  readonly returns?: readonly string[];
}

export function compile(env: Environment, expression: string, opts: CompileOptions = {}): CompileResult {
  const fail = (issues: CelIssue[]): CompileResult => ({ ok: false, issues, error: `compilation failed: ${formatIssues(expression, issues)}` });
  const syntax = parseSyntax(expression);
  if (syntax.issues.length > 0) return fail(syntax.issues);
  // `.x` is `x` from the root scope; with no container (as in Kubernetes) it is plain `x`, so the
  // CEL library reads the expression with those dots blanked (offsets stay where they are)
  let source = expression;
  for (const at of syntax.leadingDots) source = source.slice(0, at) + ' ' + source.slice(at + 1);
  let parsed: Parsed;
  try {
    parsed = env.parse(source) as Parsed;
  } catch (err) {
    return fail([unsupportedIssue(err as LibraryError)]);
  }
  const checked = parsed.check();
  if (!checked.valid) return fail(allCheckIssues(env, source, checked.error!));
  const outputType = celTypeName(outputName(parsed.ast));
  // cel-go wants the exact type: a dyn result is refused where a bool is required
  if (opts.returns && !opts.returns.includes(outputType)) {
    const want = opts.returns.length === 1 ? opts.returns[0] : `[${opts.returns.join(' ')}]`;
    const reason = opts.returns.length === 1 ? `must evaluate to ${want} but got ${outputType}` : `must evaluate to one of ${want} but got ${outputType}`;
    return { ok: false, issues: [], error: reason };
  }
  // evaluations under a CostTracker charge cel-go's runtime cost
  instrument(parsed.ast);
  return { ok: true, program: new CelProgram(expression, parsed), outputType, outputLibraryType: outputName(parsed.ast), ast: parsed.ast };
}

function outputName(ast: ASTNode): string {
  return (ast as { checkedType?: { name: string } }).checkedType?.name ?? 'dyn';
}

/** cel-go's wording for the CEL library's runtime errors. */
function runtimeMessage(err: LibraryError): string {
  if (err instanceof CelRuntimeError) return err.message;
  const summary = (err as { summary?: string }).summary ?? err.message.split('\n')[0]!;
  switch (err.code) {
    case 'no_such_key':
      return `no such key: ${summary.replace(/^No such key: /, '')}`;
    case 'division_by_zero':
      return 'division by zero';
    case 'modulo_by_zero':
      return 'modulus by zero';
    case 'numeric_overflow':
      return summary.toLowerCase().includes('unsigned') ? 'unsigned integer overflow' : 'integer overflow';
    case 'optional_value_missing':
      return 'optional.none() dereference';
    case 'index_out_of_range': {
      const m = /index (-?\d+)/.exec(summary);
      return m ? `index out of bounds: ${m[1]}` : summary;
    }
    case 'no_such_overload':
    case 'no_matching_overload':
      return 'no such overload';
  }
  return summary;
}

export class CelProgram {
  constructor(
    readonly expression: string,
    private readonly parsed: Parsed,
  ) {}

  /** The checked AST (the CEL library's). */
  get ast(): ASTNode {
    return this.parsed.ast;
  }

  /** The value, or a CelRuntimeError in cel-go's words. Async only where a function is (authz). */
  evaluate(activation: Record<string, unknown>): unknown {
    try {
      const v = this.parsed(activation);
      if (v instanceof Promise) return v.catch((err: LibraryError) => Promise.reject(celError(runtimeMessage(err))));
      return v;
    } catch (err) {
      if (err instanceof CelRuntimeError) throw err;
      throw celError(runtimeMessage(err as LibraryError));
    }
  }
}
