/**
 * cel-go's parser front (parser/parser.go, v0.26.0): the expression goes through the ANTLR
 * recognizer generated from cel-go's own grammar, with cel-go's error listener ("Syntax error: "
 * and ANTLR's message), its recovery limits (30 recovery attempts, 256 tokens of lookahead, 100
 * reported errors), its rule recursion limit (250) and the checks its AST builder makes on a
 * well-formed parse tree (literal ranges, reserved identifiers, macro arguments). The result is
 * the list of issues cel-go reports for the expression, with their positions; evaluation is left
 * to the CEL library.
 */
import {
  BaseErrorListener,
  CharStream,
  CommonTokenStream,
  DefaultErrorStrategy,
  type ATNSimulator,
  type ErrorNode,
  type Parser,
  type ParserRuleContext,
  type ParseTreeListener,
  type RecognitionException,
  type Recognizer,
  type TerminalNode,
  type Token,
} from 'antlr4ng';
import { CELLexer } from './gen/CELLexer';
import * as g from './gen/CELParser';
import type { CelIssue } from '../issues';

const ERROR_RECOVERY_LIMIT = 30;
const ERROR_RECOVERY_LOOKAHEAD_LIMIT = 256;
const ERROR_REPORTING_LIMIT = 100;
const MAX_RECURSION_DEPTH = 250;
const EXPRESSION_SIZE_CODE_POINT_LIMIT = 100_000;

const RESERVED_IDS = new Set([
  'as', 'break', 'const', 'continue', 'else', 'false', 'for', 'function', 'if', 'import', 'in', 'let', 'loop',
  'package', 'namespace', 'null', 'return', 'true', 'var', 'void', 'while',
]);

class Stop extends Error {}

/** Offsets of each line's first code point, to turn ANTLR's (line, column) into a UTF-16 offset. */
class Positions {
  private readonly lineStarts: number[] = [0];
  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }
  /** ANTLR columns count code points within the line. */
  offset(line: number, column: number): number {
    let i = this.lineStarts[line - 1] ?? this.text.length;
    for (let c = 0; c < column && i < this.text.length; c++) {
      const code = this.text.charCodeAt(i);
      i += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    }
    return i;
  }
  /** A token's start as a UTF-16 offset (token indexes are code points). */
  tokenOffset(t: Token): number {
    return this.offset(t.line, t.column);
  }
}

class Listener extends BaseErrorListener {
  reports = 0;
  constructor(
    private readonly issues: CelIssue[],
    private readonly positions: Positions,
  ) {
    super();
  }
  override syntaxError<S extends Token, T extends ATNSimulator>(
    _recognizer: Recognizer<T>,
    _offending: S | null,
    line: number,
    column: number,
    msg: string,
    _e: RecognitionException | null,
  ): void {
    // cel-go keeps its old wording for a reserved word after a dot
    const m = /no viable alternative at input '.(true|false|null)'/.exec(msg);
    if (m) msg = msg.replace(m[0], `mismatched input '${m[1]}' expecting IDENTIFIER`);
    const offset = this.positions.offset(line, column);
    if (this.reports < ERROR_REPORTING_LIMIT) {
      this.reports++;
      this.issues.push({ offset, message: `Syntax error: ${msg}` });
      return;
    }
    this.issues.push({ offset, message: `Syntax error: More than ${ERROR_REPORTING_LIMIT} syntax errors` });
    throw new Stop();
  }
}

/** cel-go's recoveryLimitErrorStrategy: bounded recovery attempts and lookahead. */
class LimitedRecovery extends DefaultErrorStrategy {
  private attempts = 0;
  constructor(private readonly onInternal: (message: string) => void) {
    super();
  }
  private check(recognizer: Parser): void {
    if (this.attempts === ERROR_RECOVERY_LIMIT) {
      this.attempts++;
      const msg = `error recovery attempt limit exceeded: ${ERROR_RECOVERY_LIMIT}`;
      recognizer.notifyErrorListeners(msg, null, null);
      throw new Stop();
    }
    this.attempts++;
  }
  private limitedConsume<R>(recognizer: Parser, fn: () => R): R {
    let consumed = 0;
    const original = recognizer.consume.bind(recognizer);
    recognizer.consume = () => {
      if (consumed >= ERROR_RECOVERY_LOOKAHEAD_LIMIT) {
        this.onInternal(`error recovery token lookahead limit exceeded: ${ERROR_RECOVERY_LOOKAHEAD_LIMIT}`);
        throw new Stop();
      }
      consumed++;
      return original();
    };
    try {
      return fn();
    } finally {
      recognizer.consume = original;
    }
  }
  override recover(recognizer: Parser, e: RecognitionException): void {
    this.check(recognizer);
    this.limitedConsume(recognizer, () => super.recover(recognizer, e));
  }
  override recoverInline(recognizer: Parser): Token {
    this.check(recognizer);
    return this.limitedConsume(recognizer, () => super.recoverInline(recognizer));
  }
}

class RecursionListener implements ParseTreeListener {
  private readonly depth = new Map<number, number>();
  constructor(private readonly onInternal: (message: string) => void) {}
  visitTerminal(_node: TerminalNode): void {}
  visitErrorNode(_node: ErrorNode): void {}
  enterEveryRule(ctx: ParserRuleContext): void {
    const d = (this.depth.get(ctx.ruleIndex) ?? 0) + 1;
    this.depth.set(ctx.ruleIndex, d);
    if (d > MAX_RECURSION_DEPTH) {
      this.onInternal(`expression recursion limit exceeded: ${MAX_RECURSION_DEPTH}`);
      throw new Stop();
    }
  }
  exitEveryRule(ctx: ParserRuleContext): void {
    const d = this.depth.get(ctx.ruleIndex) ?? 0;
    if (d > 0) this.depth.set(ctx.ruleIndex, d - 1);
  }
}

export interface SyntaxResult {
  readonly issues: CelIssue[];
  /** Offsets of leading dots (`.x`, `.f()`: names resolved from the root scope). */
  readonly leadingDots: number[];
}

/** The issues cel-go's parser reports for `expression` (none: it parses). */
export function parseSyntax(expression: string): SyntaxResult {
  const issues: CelIssue[] = [];
  const size = Array.from(expression).length;
  if (size > EXPRESSION_SIZE_CODE_POINT_LIMIT) {
    issues.push({ offset: -1, message: `expression code point size exceeds limit: size: ${size}, limit ${EXPRESSION_SIZE_CODE_POINT_LIMIT}` });
    return { issues, leadingDots: [] };
  }
  const positions = new Positions(expression);
  const internal = (message: string): void => void issues.push({ offset: -1, message });
  const listener = new Listener(issues, positions);
  const lexer = new CELLexer(CharStream.fromString(expression));
  lexer.removeErrorListeners();
  lexer.addErrorListener(listener);
  const parser = new g.CELParser(new CommonTokenStream(lexer));
  parser.removeErrorListeners();
  parser.addErrorListener(listener);
  parser.addParseListener(new RecursionListener(internal));
  parser.errorHandler = new LimitedRecovery(internal);
  let tree: g.StartContext | undefined;
  try {
    tree = parser.start();
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  // cel-go's AST builder visits the recovered tree too, so its checks add to syntax errors
  const leadingDots: number[] = [];
  if (tree) {
    try {
      new TreeChecks(positions, issues, leadingDots).visit(tree);
    } catch {
      // a recovered tree can miss tokens the checks read; the syntax errors stand for it
    }
  }
  return { issues, leadingDots };
}

/** The checks cel-go's AST builder makes while it visits a parse tree without syntax errors. */
class TreeChecks {
  constructor(
    private readonly positions: Positions,
    private readonly issues: CelIssue[],
    private readonly leadingDots: number[] = [],
  ) {}

  private report(t: Token, message: string): void {
    this.issues.push({ offset: this.positions.tokenOffset(t), message });
  }

  visit(node: ParserRuleContext): void {
    if (node instanceof g.IntContext) this.checkInt(node);
    else if (node instanceof g.UintContext) this.checkUint(node);
    else if (node instanceof g.DoubleContext) this.checkDouble(node);
    else if (node instanceof g.IdentContext) {
      this.checkIdent(node.start!, node.IDENTIFIER().getText());
      if (node._leadingDot) this.leadingDots.push(this.positions.tokenOffset(node._leadingDot));
    } else if (node instanceof g.GlobalCallContext) {
      this.checkGlobalCall(node);
      if (node._leadingDot) this.leadingDots.push(this.positions.tokenOffset(node._leadingDot));
    }
    else if (node instanceof g.MemberCallContext) this.checkMemberCall(node);
    else if (node instanceof g.EscapedIdentifierContext) this.report(node.start!, "unsupported syntax: '`'");
    for (const child of node.children) if (isRule(child)) this.visit(child);
  }

  private checkIdent(t: Token, name: string): void {
    if (RESERVED_IDS.has(name)) this.report(t, `reserved identifier: ${name}`);
  }

  private checkInt(node: g.IntContext): void {
    const text = (node.MINUS() ? '-' : '') + node.NUM_INT().getText();
    const negative = text.startsWith('-');
    const digits = negative ? text.slice(1) : text;
    const v = digits.startsWith('0x') ? BigInt(digits) : BigInt(digits);
    const signed = negative ? -v : v;
    if (signed > 9223372036854775807n || signed < -9223372036854775808n) this.report(node.start!, 'invalid int literal');
  }

  private checkUint(node: g.UintContext): void {
    const text = node.NUM_UINT().getText().replace(/[uU]$/, '');
    if (BigInt(text) > 18446744073709551615n) this.report(node.start!, 'invalid uint literal');
  }

  private checkDouble(node: g.DoubleContext): void {
    const v = Number(node.NUM_FLOAT().getText());
    if (!Number.isFinite(v)) this.report(node.start!, 'invalid double literal');
  }

  private checkGlobalCall(node: g.GlobalCallContext): void {
    const name = node.IDENTIFIER().getText();
    const args = node.exprList()?.expr() ?? [];
    if (name === 'has' && args.length === 1 && !isSelect(args[0]!)) this.report(args[0]!.start!, 'invalid argument to has() macro');
  }

  private checkMemberCall(node: g.MemberCallContext): void {
    const name = node.IDENTIFIER().getText();
    const args = node.exprList()?.expr() ?? [];
    const twoVar = (TWO_VAR_MACROS.get(name) ?? []).includes(args.length);
    if (twoVar) {
      if (!isSimpleName(args[0]!)) this.report(args[0]!.start!, 'first variable name must be a simple identifier');
      else if (!isSimpleName(args[1]!)) this.report(args[1]!.start!, 'second variable name must be a simple identifier');
      else if (args[0]!.getText() === args[1]!.getText()) this.report(args[1]!.start!, 'duplicate variable name: ' + args[0]!.getText());
      return;
    }
    if (!(ONE_VAR_MACROS.get(name) ?? []).includes(args.length)) return;
    const first = args[0]!;
    const where = this.positions.offset(nodeToken(first).line, nodeToken(first).column);
    const quantifier = name === 'all' || name.startsWith('exists');
    if (!isSimpleName(first)) this.issues.push({ offset: where, message: quantifier ? 'argument must be a simple name' : 'argument is not an identifier' });
    else if (first.getText() === '__result__') this.issues.push({ offset: where, message: 'iteration variable overwrites accumulator variable' });
  }
}

/** cel-go's macros with one iteration variable, by argument count. */
const ONE_VAR_MACROS = new Map<string, number[]>([
  ['all', [2]], ['exists', [2]], ['exists_one', [2]], ['existsOne', [2]], ['map', [2, 3]], ['filter', [2]], ['optMap', [2]], ['optFlatMap', [2]], ['sortBy', [2]],
]);
/** ext.TwoVarComprehensions' macros, by argument count. */
const TWO_VAR_MACROS = new Map<string, number[]>([
  ['all', [3]], ['exists', [3]], ['existsOne', [3]], ['exists_one', [3]], ['transformList', [3, 4]], ['transformMap', [3, 4]], ['transformMapEntry', [3, 4]],
]);

/**
 * The token cel-go places an expression's id at: the operator of a call or operator, the dot of
 * a selection, the opening parenthesis of a function call, the bracket of an index or list.
 */
export function nodeToken(node: ParserRuleContext): Token {
  let n: ParserRuleContext = node;
  for (;;) {
    if (n instanceof g.ExprContext && n._op) return n._op;
    if ((n instanceof g.ConditionalOrContext || n instanceof g.ConditionalAndContext) && n._ops.length > 0) return n._ops[0]!;
    if ((n instanceof g.RelationContext || n instanceof g.CalcContext) && n._op) return n._op;
    if ((n instanceof g.LogicalNotContext || n instanceof g.NegateContext) && n._ops.length > 0) return n._ops[0]!;
    if (n instanceof g.SelectContext || n instanceof g.IndexContext || n instanceof g.CreateListContext || n instanceof g.CreateStructContext || n instanceof g.CreateMessageContext) return n._op ?? n.start!;
    if (n instanceof g.MemberCallContext) return n._open ?? n.start!;
    if (n instanceof g.GlobalCallContext) return n._op ?? n.start!;
    if (n instanceof g.IdentContext) return n._id ?? n.start!;
    if (n instanceof g.NestedContext) {
      n = n._e!;
      continue;
    }
    const rules = n.children.filter(isRule);
    if (rules.length === 1 && n.children.length === 1) {
      n = rules[0]!;
      continue;
    }
    return n.start!;
  }
}

function isRule(n: unknown): n is ParserRuleContext {
  return typeof n === 'object' && n !== null && 'ruleIndex' in n && 'children' in n;
}

/** The expression is a bare identifier (cel-go's comprehension variables must be). */
function isSimpleName(e: g.ExprContext): boolean {
  return /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(e.getText()) && !RESERVED_IDS.has(e.getText());
}

/** has() takes a field selection: the expression's top node is a Select. */
function isSelect(e: g.ExprContext): boolean {
  let n: ParserRuleContext = e;
  for (;;) {
    const rules = n.children.filter(isRule);
    if (n instanceof g.SelectContext) return true;
    if (rules.length !== 1 || n.children.length !== 1) return false;
    n = rules[0]!;
  }
}
