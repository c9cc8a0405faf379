/**
 * ELK in a Web Worker: the object graph's layouts run off the webview's main thread, so the
 * panel keeps drawing, scrolling and answering keys while a large graph is laid out (a layered
 * layout of 1,000 boxes takes seconds on a busy machine).
 *
 * The worker is elkjs's own worker script (elk-worker.min.js: ELK compiled to JavaScript, with
 * the message dispatcher elkjs's API speaks to), carried in the webview bundle as a string and
 * started from a blob: URL: VS Code webviews start workers only from blob: or data: URLs, and the
 * panel's Content-Security-Policy allows exactly `worker-src blob:` for it
 * (src/extension/panel/html.ts). The worker fetches nothing (the policy it inherits allows no
 * connections).
 *
 * Messages are elkjs's: {id, cmd: 'register', algorithms} once, then {id, cmd: 'layout', graph,
 * layoutOptions, options}, answered {id, data} or {id, error}. If the worker cannot start or
 * dies, every layout waiting on it fails with the reason (the graph says so) and the next
 * layout starts a fresh worker.
 */
import type { ElkNode } from 'elkjs/lib/elk-api';
import source from 'elkjs-worker-source';
import type { Layouter } from '../model/graph-layout';

interface Waiting {
  resolve(graph: ElkNode): void;
  reject(err: Error): void;
}

export class ElkWorker implements Layouter {
  readonly thread = 'worker';
  private worker: Worker | undefined;
  private url: string | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  layout(graph: ElkNode): Promise<ElkNode> {
    return new Promise<ElkNode>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = this.start();
      } catch (err) {
        reject(new Error(`the layout worker could not start: ${err instanceof Error ? err.message : String(err)}`));
        return;
      }
      const id = this.nextId++;
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, cmd: 'layout', graph, layoutOptions: {}, options: {} });
    });
  }

  /** Layouts sent and not answered yet. */
  get busy(): number {
    return this.waiting.size;
  }

  dispose(): void {
    this.fail(new Error('the layout worker was stopped'));
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = undefined;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    this.url ??= URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const worker = new Worker(this.url, { name: 'kubesim-graph-layout' });
    worker.onmessage = (e: MessageEvent<{ id?: unknown; data?: ElkNode; error?: unknown }>) => {
      const m = e.data;
      if (typeof m?.id !== 'number' || m.id === 0) return;
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.error !== undefined) w.reject(new Error(`ELK: ${describe(m.error)}`));
      else if (m.data && typeof m.data === 'object') w.resolve(m.data);
      else w.reject(new Error('ELK answered without a graph'));
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.fail(new Error(`the layout worker failed: ${e.message || 'it could not be started (is worker-src blob: allowed?)'}`));
    };
    worker.onmessageerror = () => this.fail(new Error('the layout worker sent a message that could not be read'));
    // Only the layered algorithm is used (graph-layout.ts); id 0's answer is not waited for.
    worker.postMessage({ id: 0, cmd: 'register', algorithms: ['layered'] });
    this.worker = worker;
    return worker;
  }

  private fail(err: Error): void {
    this.worker?.terminate();
    this.worker = undefined;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(err);
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (err && typeof err === 'object') {
    const o = err as { message?: unknown; g?: unknown; detailMessage?: unknown };
    for (const v of [o.message, o.detailMessage, o.g]) if (typeof v === 'string' && v) return v;
  }
  return String(err);
}
