/**
 * Syntax errors against cel-go's own: the parser test table of cel-go (as @bufbuild/cel-spec
 * records it, with cel-go's error text for each failing expression). Cases run with parser
 * options Kubernetes does not set (recursion limit 32, recovery limit 4, optional syntax off)
 * are left out.
 */
import * as assert from 'node:assert/strict';
import { getParsingSuite, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { formatIssues } from '../../../src/engine/cel/issues';
import { parseSyntax } from '../../../src/engine/cel/syntax/parse';

const NON_DEFAULT_OPTIONS = /limit exceeded: (4|32)|max recursion depth exceeded|unsupported syntax '(\.\?|\[\?|\?)'/;
const CHECKER_ERRORS = /undeclared reference|found no matching overload/;

describe('CEL syntax errors (cel-go parser table)', () => {
  it('reports what cel-go reports', () => {
    let same = 0;
    const diffs: string[] = [];
    let parsed = 0;
    const walk = (s: IncrementalTestSuite): void => {
      for (const t of s.tests) {
        const expr = t.original.expr;
        const r = parseSyntax(expr);
        if (!t.error) {
          assert.deepEqual(r.issues, [], `cel-go parses ${JSON.stringify(expr)}`);
          parsed++;
          continue;
        }
        if (CHECKER_ERRORS.test(t.error) || NON_DEFAULT_OPTIONS.test(t.error)) continue;
        const want = t.error.replace(/ERROR: :/g, 'ERROR: <input>:');
        if (formatIssues(expr, r.issues) === want) same++;
        else diffs.push(JSON.stringify(expr));
      }
      for (const c of s.suites) walk(c);
    };
    walk(getParsingSuite());
    console.log(`      cel-go parser table: ${parsed} expressions parse; ${same}/${same + diffs.length} syntax errors identical to cel-go's (different: ${diffs.join(', ')})`);
    assert.ok(same >= 64, `only ${same} identical`);
  });
});
