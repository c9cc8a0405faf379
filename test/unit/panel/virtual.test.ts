import { strict as assert } from 'node:assert';
import { atEnd, navigate, pageRows, revealScrollTop, visibleWindow } from '../../../webview/model/virtual';
import { SortedWindow } from '../../../webview/model/sorted-window';

describe('panel virtual list: windowing math', () => {
  it('renders only the rows in view plus overscan', () => {
    // 22 px rows, a 220 px viewport: 10 rows fit, 11 can be partly visible.
    assert.deepEqual(visibleWindow(0, 220, 22, 100_000, 4), { start: 0, end: 15, offset: 0 });
    assert.deepEqual(visibleWindow(22 * 50_000 + 5, 220, 22, 100_000, 4), { start: 49_996, end: 50_015, offset: 49_996 * 22 });
    assert.deepEqual(visibleWindow(22 * 99_995, 220, 22, 100_000, 4), { start: 99_991, end: 100_000, offset: 99_991 * 22 });
  });

  it('never renders more than a screenful, whatever the list size', () => {
    for (const count of [0, 1, 10, 1000, 100_000, 1_000_000]) {
      const w = visibleWindow(count * 11, 600, 22, count, 4);
      assert.ok(w.end - w.start <= Math.ceil(600 / 22) + 1 + 8, `count ${count}`);
      assert.ok(w.start >= 0 && w.end <= count && w.start <= w.end);
    }
  });

  it('copes with degenerate sizes and scroll positions', () => {
    assert.deepEqual(visibleWindow(0, 500, 22, 0), { start: 0, end: 0, offset: 0 });
    assert.deepEqual(visibleWindow(-100, 44, 22, 10, 0), { start: 0, end: 3, offset: 0 });
    assert.deepEqual(visibleWindow(10_000, 44, 22, 10, 0), { start: 10, end: 10, offset: 220 });
    assert.deepEqual(visibleWindow(0, 0, 22, 10, 0), { start: 0, end: 1, offset: 0 });
  });

  it('scrolls as little as possible to reveal a row', () => {
    assert.equal(revealScrollTop(5, 0, 220, 22), 0, 'already visible');
    assert.equal(revealScrollTop(20, 0, 220, 22), 21 * 22 - 220, 'below: aligns its bottom');
    assert.equal(revealScrollTop(3, 400, 220, 22), 66, 'above: aligns its top');
    assert.equal(revealScrollTop(9, 0, 220, 22), 0, 'the last fully visible row');
    assert.equal(revealScrollTop(10, 0, 220, 22), 22, 'the partly visible row');
  });

  it('moves the selection with the arrow, paging, Home and End keys', () => {
    const page = pageRows(220, 22);
    assert.equal(page, 9);
    assert.equal(navigate('ArrowDown', -1, 50, page), 0, 'first press selects the first row');
    assert.equal(navigate('ArrowUp', -1, 50, page), 49, 'or the last');
    assert.equal(navigate('ArrowDown', 49, 50, page), 49, 'stays at the end');
    assert.equal(navigate('ArrowUp', 0, 50, page), 0, 'stays at the start');
    assert.equal(navigate('PageDown', 45, 50, page), 49);
    assert.equal(navigate('PageDown', 10, 50, page), 19);
    assert.equal(navigate('PageUp', 5, 50, page), 0);
    assert.equal(navigate('Home', 30, 50, page), 0);
    assert.equal(navigate('End', 3, 50, page), 49);
    assert.equal(navigate('Enter', 3, 50, page), undefined, 'other keys are left alone');
    assert.equal(navigate('ArrowDown', 3, 0, page), undefined, 'nothing to select');
    assert.equal(navigate('ArrowDown', 80, 50, page), 49, 'a stale index is clamped');
  });

  it('knows when the list sits at its end (new rows then keep it there)', () => {
    assert.equal(atEnd(0, 220, 22, 5), true);
    assert.equal(atEnd(22 * 90, 220, 22, 100), true);
    assert.equal(atEnd(22 * 50, 220, 22, 100), false);
  });
});

describe('panel sorted window', () => {
  const item = (id: number) => ({ id });

  it('keeps id order when a late record (a reconcile with a reserved id) arrives after newer ones', () => {
    const w = new SortedWindow<{ id: number }>();
    for (const id of [1, 2, 4, 5]) w.insert(item(id));
    assert.equal(w.insert(item(3)), 2);
    assert.equal(w.insert(item(6)), 5);
    assert.deepEqual([...w].map((x) => x.id), [1, 2, 3, 4, 5, 6]);
    assert.equal(w.indexOfId(4), 3);
    assert.equal(w.indexOfId(7), -1);
    assert.equal(w.lowerBound(4), 3);
  });

  it('drops from the front and still finds and indexes the rest', () => {
    const w = new SortedWindow<{ id: number }>();
    for (let id = 1; id <= 5000; id++) w.insert(item(id));
    assert.deepEqual(w.dropFirst(2).map((x) => x.id), [1, 2]);
    assert.equal(w.dropBelow(3001), 2998);
    assert.equal(w.length, 2000);
    assert.equal(w.first()?.id, 3001);
    assert.equal(w.at(0)?.id, 3001);
    assert.equal(w.last()?.id, 5000);
    assert.equal(w.indexOfId(3001), 0);
    assert.equal(w.indexOfId(100), -1);
    assert.equal(w.at(-1), undefined);
  });
});
