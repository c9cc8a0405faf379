import { strict as assert } from 'node:assert';
import { diffLines, diffStat, foldUnchanged } from '../../../webview/model/diff';
import { filterTable, scoreTable } from '../../../webview/model/scheduler';
import { initialState, restoreState } from '../../../webview/model/state';
import { attempt } from './records';

describe('panel diff: an object against the version before it', () => {
  const show = (before: string, after: string) => diffLines(before, after).map((l) => `${l.op}${l.text}`);

  it('marks changed lines and keeps the rest as context', () => {
    const before = 'kind: Deployment\nspec:\n  replicas: 3\n  paused: false\n';
    const after = 'kind: Deployment\nspec:\n  replicas: 5\n  paused: false\n';
    assert.deepEqual(show(before, after), [' kind: Deployment', ' spec:', '-  replicas: 3', '+  replicas: 5', '   paused: false']);
    assert.deepEqual(diffStat(diffLines(before, after)), { added: 1, removed: 1 });
  });

  it('a creation is all added, a deletion all removed, no change is all context', () => {
    assert.deepEqual(show('', 'a\nb\n'), ['+a', '+b']);
    assert.deepEqual(show('a\nb\n', ''), ['-a', '-b']);
    assert.deepEqual(show('a\nb\n', 'a\nb\n'), [' a', ' b']);
  });

  it('finds a minimal edit script for insertions and removals in the middle', () => {
    assert.deepEqual(show('a\nb\nc\nd\ne\n', 'a\nc\nd\nx\ne\n'), [' a', '-b', ' c', ' d', '+x', ' e']);
    const lines = diffLines('1\n2\n3\n4\n5\n6\n', '0\n2\n3\n5\n6\n7\n');
    assert.deepEqual(diffStat(lines), { added: 2, removed: 2 });
    // Reading the diff back gives both versions.
    assert.deepEqual(lines.filter((l) => l.op !== '+').map((l) => l.text), ['1', '2', '3', '4', '5', '6']);
    assert.deepEqual(lines.filter((l) => l.op !== '-').map((l) => l.text), ['0', '2', '3', '5', '6', '7']);
  });

  it('folds long unchanged runs, keeping context around each change', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    const folded = foldUnchanged(diffLines(before, after), 2).map((l) => ('skipped' in l ? `(${l.skipped} skipped)` : `${l.op}${l.text}`));
    assert.deepEqual(folded, ['(8 skipped)', ' line 8', ' line 9', '-line 10', '+line ten', ' line 11', ' line 12', '(7 skipped)']);
    assert.deepEqual(foldUnchanged(diffLines('a\n', 'a\n')), [{ skipped: 1 }]);
  });

  it('stays bounded on large rewrites', () => {
    const a = Array.from({ length: 5000 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 5000 }, (_, i) => `b${i}`).join('\n');
    const lines = diffLines(a, b);
    assert.deepEqual(diffStat(lines), { added: 5000, removed: 5000 });
  });
});

describe('panel scheduler tables: read off a scheduling attempt', () => {
  it('the filter table: nodes by plugins, stopping at the first rejection', () => {
    const t = filterTable(attempt(1))!;
    assert.deepEqual(t.plugins, ['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeResourcesFit']);
    assert.deepEqual(
      t.rows.map((r) => [r.node, r.feasible, r.chosen, r.cells.map((c) => c.verdict).join(',')]),
      [
        ['node-1', false, false, 'passed,passed,passed,rejected'],
        ['node-2', true, true, 'passed,passed,passed,passed'],
        ['node-3', true, false, 'passed,passed,passed,passed'],
      ],
    );
    assert.deepEqual(t.rows[0]!.cells[3]!.reasons, ['Insufficient cpu']);
    const early = filterTable(attempt(2, { filters: [{ node: 'node-9', code: 'UnschedulableAndUnresolvable', plugin: 'NodeName', reasons: ["node(s) didn't match the requested node name"] }] }))!;
    assert.deepEqual(early.rows[0]!.cells.map((c) => c.verdict), ['passed', 'rejected', 'not run', 'not run']);
  });

  it('the score table: raw, normalized and weighted per plugin, ranked as the scheduler ranked', () => {
    const t = scoreTable(attempt(1))!;
    assert.deepEqual(t.plugins, [
      { name: 'NodeResourcesFit', weight: 1 },
      { name: 'TaintToleration', weight: 3 },
    ]);
    assert.deepEqual(
      t.rows.map((r) => [r.node, r.chosen, r.total, r.cells.map((c) => `${c.raw}/${c.normalized}/${c.weighted}`).join(' ')]),
      [
        ['node-2', true, 380, '80/80/80 0/100/300'],
        ['node-3', false, 340, '40/40/40 0/100/300'],
      ],
    );
  });

  it('a FailedScheduling explained node by node; summary records have no tables', () => {
    const failed = attempt(3, {
      outcome: 'unschedulable',
      node: undefined,
      message: '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: db}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
      filters: [
        { node: 'node-1', code: 'Unschedulable', plugin: 'NodeResourcesFit', reasons: ['Insufficient cpu'] },
        { node: 'node-2', code: 'UnschedulableAndUnresolvable', plugin: 'TaintToleration', reasons: ['node(s) had untolerated taint {dedicated: db}'] },
      ],
      scores: undefined,
      scorePlugins: undefined,
    });
    assert.deepEqual(
      filterTable(failed)?.rows.map((r) => [r.node, r.feasible, r.cells.find((c) => c.verdict === 'rejected')?.reasons]),
      [
        ['node-1', false, ['Insufficient cpu']],
        ['node-2', false, ['node(s) had untolerated taint {dedicated: db}']],
      ],
    );
    assert.equal(scoreTable(failed), undefined);
    const summary = attempt(4, { filters: undefined, scores: undefined });
    assert.equal(filterTable(summary), undefined);
    assert.equal(scoreTable(summary), undefined);
  });
});

describe('panel state: what survives the panel being hidden', () => {
  it('round-trips through vscode.setState/getState (structured clone)', () => {
    const s = initialState();
    s.tab = 'scheduler';
    s.selected.revisions = 57;
    s.scroll.requests = 22_000;
    s.filters.revisions.namespace = 'default';
    s.filters.scheduler.pod = 'web';
    s.flowRoot = 12;
    assert.deepEqual(restoreState(structuredClone(s)), s);
  });

  it('trusts nothing it reads back: bad or missing parts fall back to defaults', () => {
    assert.deepEqual(restoreState(undefined), initialState());
    assert.deepEqual(restoreState('revisions'), initialState());
    const bad = restoreState({ tab: 'shell', selected: { revisions: -1, requests: 'x', flow: 3 }, scroll: { revisions: 1.5 }, filters: { revisions: { namespace: 5, kind: 'x'.repeat(1000), actor: 'alice', extra: 'y' } }, flowRoot: NaN });
    const expected = initialState();
    expected.filters.revisions.actor = 'alice';
    assert.deepEqual(bad, expected);
  });
});
