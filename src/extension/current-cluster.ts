/**
 * What both ends of a cluster's lifetime keep the same way (the editor's ClusterSession and the
 * worker's EngineSession): the running cluster, if any; the first use starts it, and callers
 * that come while it starts share that start (one that fails leaves none, so the next use tries
 * again); every replacement is announced through onDidChangeCluster. No vscode import.
 */
import { Emitter } from './events';

export abstract class CurrentCluster<H> {
  protected host: H | undefined;
  protected starting: Promise<H> | undefined;
  protected readonly changed = new Emitter<H | undefined>();
  readonly onDidChangeCluster = this.changed.event;

  get current(): H | undefined {
    return this.host;
  }

  /** The running cluster; the first call starts it (restoring the saved one if persistence is on). */
  get(): Promise<H> {
    if (this.host) return Promise.resolve(this.host);
    this.starting ??= this.startFirst().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Starts the cluster a first use gets (and makes it the current one). */
  protected abstract startFirst(): Promise<H>;
}
