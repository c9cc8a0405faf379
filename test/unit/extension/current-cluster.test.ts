/** CurrentCluster: the running cluster both sessions keep, started once on first use. */
import { strict as assert } from 'node:assert';
import { CurrentCluster } from '../../../src/extension/current-cluster';

class Counter extends CurrentCluster<string> {
  starts = 0;
  fail = false;
  private release: (() => void) | undefined;

  protected async startFirst(): Promise<string> {
    this.starts++;
    await new Promise<void>((resolve) => (this.release = resolve));
    if (this.fail) throw new Error('could not start');
    this.host = `cluster ${this.starts}`;
    this.changed.fire(this.host);
    return this.host;
  }

  finishStart(): void {
    this.release?.();
  }
}

describe('extension/current-cluster', () => {
  it('starts once for callers that come while it starts, then answers with the running cluster', async () => {
    const c = new Counter();
    const seen: (string | undefined)[] = [];
    c.onDidChangeCluster((h) => seen.push(h));
    assert.equal(c.current, undefined);
    const first = c.get();
    const second = c.get();
    c.finishStart();
    assert.deepEqual(await Promise.all([first, second]), ['cluster 1', 'cluster 1']);
    assert.equal(await c.get(), 'cluster 1');
    assert.equal(c.current, 'cluster 1');
    assert.equal(c.starts, 1);
    assert.deepEqual(seen, ['cluster 1']);
  });

  it('a start that fails leaves no cluster, and the next use starts again', async () => {
    const c = new Counter();
    c.fail = true;
    const failed = c.get();
    c.finishStart();
    await assert.rejects(failed, /could not start/);
    assert.equal(c.current, undefined);
    c.fail = false;
    const again = c.get();
    c.finishStart();
    assert.equal(await again, 'cluster 2');
  });
});
