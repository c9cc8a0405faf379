/** vscode's Event and EventEmitter shapes, without vscode (the session and the engine worker use them). */

export interface Disposable {
  dispose(): void;
}

/** vscode.Event's shape, without vscode. */
export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => unknown>();

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = (e: T) => listener.call(thisArgs, e);
    this.listeners.add(bound);
    const d = { dispose: () => void this.listeners.delete(bound) };
    disposables?.push(d);
    return d;
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
}
