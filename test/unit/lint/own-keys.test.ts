/**
 * Keeps the class of "keys named like Object.prototype members" closed (see
 * src/engine/api/own.ts): a source scan, with the type checker, of src/ and webview/ for
 * - `o[k]` (read or write) where `k` is any string and `o` a plain object used as a map (a type
 *   with a string index signature, or any), unless `o` is a Dict, the key is one of the same
 *   object's own keys (`for (const k of Object.keys(o)) ... o[k]`), the read is guarded by
 *   `Object.hasOwn(o, k)` (`?:`, `&&`, `!... ||`, `if`), or it is a `delete`;
 * - `k in o` with any string `k`, unless `o` is a Dict;
 * - `Object.assign` copying from a map-typed object (it assigns `__proto__` as the prototype);
 * - `.hasOwnProperty(` (a data object may have its own `hasOwnProperty` key);
 * - destructuring with a computed key.
 * A site that is safe for a reason the scan cannot see says so on its line or the line before:
 * `// own-keys: <why>`.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');

interface Finding {
  file: string;
  line: number;
  what: string;
  text: string;
}

function programFor(tsconfig: string): ts.Program {
  const cfg = ts.readConfigFile(tsconfig, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(cfg.config, ts.sys, path.dirname(tsconfig));
  return ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
}

function scan(program: ts.Program, include: (file: string) => boolean): Finding[] {
  const checker = program.getTypeChecker();
  const findings: Finding[] = [];

  const isFreeString = (t: ts.Type): boolean => {
    if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) return true;
    if (t.isUnion()) return t.types.some(isFreeString);
    if (t.flags & (ts.TypeFlags.TypeParameter | ts.TypeFlags.Index | ts.TypeFlags.Conditional | ts.TypeFlags.IndexedAccess | ts.TypeFlags.Substitution)) {
      const c = checker.getBaseConstraintOfType(t);
      return c ? isFreeString(c) : false;
    }
    return false;
  };
  const isBranded = (t: ts.Type): boolean => checker.getPropertiesOfType(t).some((p) => String(p.escapedName).startsWith('__@NO_PROTOTYPE'));
  /** A plain object used as a map: a string index signature (or any), not an array or a Dict. */
  const isPlainMap = (t: ts.Type): boolean => {
    if (t.flags & ts.TypeFlags.Any) return true;
    if (t.isUnion()) return t.types.some(isPlainMap);
    if (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) return false;
    if (checker.isArrayType(t) || checker.isTupleType(t) || isBranded(t)) return false;
    return !!checker.getIndexInfoOfType(t, ts.IndexKind.String);
  };
  const strip = (e: ts.Expression): ts.Expression => {
    for (;;) {
      if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e) || ts.isTypeAssertionExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
      else return e;
    }
  };
  /** The object whose own keys a key variable iterates, if it is declared that way. */
  const keysOf = (key: ts.Expression): string | undefined => {
    key = strip(key);
    if (!ts.isIdentifier(key)) return undefined;
    const symbol = checker.getSymbolAtLocation(key);
    const decl = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
    if (!decl) return undefined;
    // for (const k of Object.keys(o)) / for (const [k, v] of Object.entries(o)) / for (const k in o)
    let binding: ts.Node = decl;
    if (ts.isBindingElement(binding)) {
      const pattern = binding.parent;
      if (!ts.isArrayBindingPattern(pattern) || pattern.elements[0] !== binding) return undefined;
      binding = pattern.parent;
    }
    if (ts.isVariableDeclaration(binding)) {
      const list = binding.parent;
      const stmt = list?.parent;
      if (stmt && (ts.isForOfStatement(stmt) || ts.isForInStatement(stmt)) && stmt.initializer === list) {
        if (ts.isForInStatement(stmt)) return strip(stmt.expression).getText();
        return keysSource(stmt.expression);
      }
      return undefined;
    }
    // Object.keys(o).forEach((k) => ...), .map, .filter, .some, .every
    if (ts.isParameter(binding) && binding.parent.parameters[0] === binding) {
      const fn = binding.parent;
      const call = fn.parent;
      if (ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && call.arguments[0] === fn) {
        return keysSource(call.expression.expression);
      }
    }
    return undefined;
  };
  /** `Object.keys(o)`, `Object.entries(o)`, and those sorted, filtered or sliced: o's text. */
  const keysSource = (e: ts.Expression): string | undefined => {
    e = strip(e);
    // const keys = Object.keys(o) ... keys.map((k) => o[k])
    if (ts.isIdentifier(e)) {
      const decl = checker.getSymbolAtLocation(e)?.valueDeclaration;
      if (decl && ts.isVariableDeclaration(decl) && decl.initializer && ts.isVariableDeclarationList(decl.parent) && decl.parent.flags & ts.NodeFlags.Const) return keysSource(decl.initializer);
      return undefined;
    }
    while (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && ['sort', 'filter', 'slice', 'reverse', 'toSorted'].includes(e.expression.name.text)) {
      e = strip(e.expression.expression);
    }
    if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression)) return undefined;
    const callee = e.expression;
    if (callee.expression.getText() !== 'Object' || !['keys', 'entries', 'getOwnPropertyNames'].includes(callee.name.text)) return undefined;
    const arg = e.arguments[0];
    return arg ? textOf(arg) : undefined;
  };
  const textOf = (e: ts.Expression): string => {
    e = strip(e);
    // `o ?? {}` and `o || {}` iterate o's keys.
    if (ts.isBinaryExpression(e) && (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken)) return textOf(e.left);
    return e.getText().replace(/\?\./g, '.').replace(/([\w\])])!/g, '$1');
  };

  /** A read under `Object.hasOwn(o, k) ? o[k] : ...`, `hasOwn(o, k) && o[k]` or `if (Object.hasOwn(o, k)) ... o[k]`. */
  const guarded = (n: ts.ElementAccessExpression): boolean => {
    const check = new RegExp(`\\bhasOwn\\(${escape(textOf(n.expression))}, ${escape(textOf(n.argumentExpression))}\\)`);
    const holds = (cond: ts.Node) => check.test(cond.getText().replace(/\?\./g, '.').replace(/([\w\])])!/g, '$1'));
    let child: ts.Node = n;
    for (let p = n.parent; p && !ts.isFunctionLike(p); child = p, p = p.parent) {
      if (ts.isConditionalExpression(p) && p.whenTrue === child && holds(p.condition)) return true;
      if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && p.right === child && holds(p.left)) return true;
      // !Object.hasOwn(o, k) || o[k] ...
      if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.BarBarToken && p.right === child && ts.isPrefixUnaryExpression(p.left) && p.left.operator === ts.SyntaxKind.ExclamationToken && holds(p.left.operand)) return true;
      if (ts.isIfStatement(p) && p.thenStatement === child && holds(p.expression)) return true;
    }
    return false;
  };
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  for (const sf of program.getSourceFiles()) {
    if (!include(sf.fileName)) continue;
    const lines = sf.getFullText().split('\n');
    const excused = (node: ts.Node): boolean => {
      const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
      return /\/\/ own-keys: \S/.test(lines[line] ?? '') || /^\s*\/\/ own-keys: \S/.test(lines[line - 1] ?? '');
    };
    const report = (node: ts.Node, what: string) => {
      if (excused(node)) return;
      const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
      findings.push({ file: path.relative(ROOT, sf.fileName), line: line + 1, what, text: node.getText().replace(/\s+/g, ' ').slice(0, 100) });
    };
    const visit = (n: ts.Node): void => {
      if (ts.isElementAccessExpression(n) && isFreeString(checker.getTypeAtLocation(n.argumentExpression)) && isPlainMap(checker.getTypeAtLocation(n.expression))) {
        const p = n.parent;
        const write =
          (ts.isBinaryExpression(p) && p.left === n && p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && p.operatorToken.kind <= ts.SyntaxKind.LastAssignment);
        const own = keysOf(n.argumentExpression);
        const sameObject = own !== undefined && own === textOf(n.expression);
        // `delete o[k]` removes an own key or nothing.
        if (!sameObject && !ts.isDeleteExpression(p) && !(!write && guarded(n))) report(n, write ? 'write with a free key on a plain object (setOwn, or a Dict)' : 'read with a free key on a plain object (own(), or a Dict)');
      }
      if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InKeyword && isFreeString(checker.getTypeAtLocation(n.left))) {
        const right = checker.getTypeAtLocation(n.right);
        if (!isBranded(right)) report(n, '`in` with a free key (Object.hasOwn)');
      }
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
        const name = n.expression.name.text;
        if (name === 'hasOwnProperty') report(n, '.hasOwnProperty (Object.hasOwn)');
        if (name === 'assign' && n.expression.expression.getText() === 'Object') {
          for (const arg of n.arguments.slice(1)) {
            if (ts.isObjectLiteralExpression(strip(arg))) continue;
            if (isPlainMap(checker.getTypeAtLocation(arg))) report(n, 'Object.assign from a map (a spread keeps __proto__ as a key)');
          }
        }
      }
      if (ts.isBindingElement(n) && n.propertyName && ts.isComputedPropertyName(n.propertyName) && isFreeString(checker.getTypeAtLocation(n.propertyName.expression))) {
        report(n, 'destructuring with a computed key (own())');
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return findings;
}

describe('lint: keys named like Object.prototype members are data (own-keys)', function () {
  this.timeout(180_000);

  it('src/ and webview/ look up and write map keys as own keys only', () => {
    const inSrc = (f: string) => f.startsWith(path.join(ROOT, 'src') + path.sep);
    const inWebview = (f: string) => f.startsWith(path.join(ROOT, 'webview') + path.sep);
    const findings = [
      ...scan(programFor(path.join(ROOT, 'tsconfig.json')), inSrc),
      ...scan(programFor(path.join(ROOT, 'webview', 'tsconfig.json')), inWebview),
    ];
    const report = findings.map((f) => `${f.file}:${f.line}: ${f.what}: ${f.text}`).join('\n');
    assert.equal(findings.length, 0, `${findings.length} sites:\n${report}`);
  });
});
