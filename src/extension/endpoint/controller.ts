/**
 * Start / Stop API Endpoint: the editor's cluster served to kubectl, as `kubesim serve` serves
 * its own. The server itself lives with the engine (ClusterHost.serveApi, endpoint/serve.ts);
 * this side writes the kubeconfig (0600, in the extension's global storage), tells the user how
 * to use it (notification, output channel, status bar tooltip, a terminal with KUBECONFIG set)
 * and keeps the `kubesim.apiEndpointRunning` context key.
 *
 * When the cluster is replaced (Reset Cluster, Import Snapshot) the endpoint is restarted on the
 * new cluster with the same port and certificate, and the kubeconfig at the same path gets the
 * new cluster's tokens: a terminal that exported KUBECONFIG keeps working, as kubectl reads the
 * file on every call. Open watches end, as they do when kube-apiserver restarts. Switch User
 * restarts it the same way, for the new user's context.
 */
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RemoteClusterHost as ClusterHost } from '../engine/remote-host';
import { clusterHost, type Services } from '../commands/services';
import type { StatusBar } from '../status-bar';
import type { RemoteServedApi as ServedApi } from '../engine/remote-host';
import { endpointErrorText, endpointNotice, endpointStartedLines, endpointStoppedLines, endpointTooltipLines, exportCommand, kubeconfigFileName } from './text';

export const RUNNING_CONTEXT_KEY = 'kubesim.apiEndpointRunning';
export const TERMINAL_NAME = 'kubectl (kubesim)';

/** Where the endpoint serves: what the Start command returns. */
export interface EndpointInfo {
  url: string;
  port: number;
  /** The kubeconfig file's path. */
  kubeconfig: string;
  /** Its contexts, the current one first. */
  contexts: readonly string[];
}

interface Running {
  served: ServedApi;
  info: EndpointInfo;
}

export class ApiEndpointController implements vscode.Disposable {
  private running: Running | undefined;
  /** Set while the cluster is being replaced: the endpoint comes back on the new one. */
  private resume: Running | undefined;
  /** Starts, stops and restarts run one after another. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly s: Services,
    private readonly statusBar: StatusBar,
  ) {
    this.subscription = s.session.onDidChangeCluster((host) => void this.serial(() => this.clusterChanged(host)));
  }

  get current(): EndpointInfo | undefined {
    return this.running?.info;
  }

  /** Starts the endpoint, or shows where it already runs. */
  start(): Promise<EndpointInfo | undefined> {
    return this.serial(async () => {
      if (this.running) {
        this.notify(this.running.info);
        return this.running.info;
      }
      const host = await clusterHost(this.s);
      const port = this.s.settings().apiEndpoint.port;
      const running = await this.serve(host, port);
      if (!running) return undefined;
      this.s.output.append(endpointStartedLines(running.info.url, running.info.kubeconfig, running.info.contexts));
      this.notify(running.info);
      return running.info;
    });
  }

  stop(): Promise<void> {
    return this.serial(async () => {
      this.resume = undefined;
      const running = this.running;
      if (!running) return;
      await this.close(running);
      this.s.output.append(endpointStoppedLines(running.info.url));
      vscode.window.setStatusBarMessage(`KubeSim: the API endpoint at ${running.info.url} stopped`, 4000);
    });
  }

  /** Switch User: the kubeconfig gets the new user's context (same port, certificate and path). */
  userChanged(): Promise<void> {
    return this.serial(async () => {
      const host = this.s.session.current;
      if (this.running && host) await this.restart(host, this.running, 'the user changed; the kubeconfig has its context');
    });
  }

  private async clusterChanged(host: ClusterHost | undefined): Promise<void> {
    if (!host) {
      // The old host closed the server when it was disposed.
      if (this.running) this.resume = this.running;
      this.running = undefined;
      await this.publish();
      return;
    }
    const previous = this.resume;
    this.resume = undefined;
    if (previous) await this.restart(host, previous, 'the cluster was replaced; the kubeconfig holds its new tokens');
  }

  private async restart(host: ClusterHost, previous: Running, why: string): Promise<void> {
    this.running = undefined;
    const running = await this.serve(host, previous.info.port, previous.served);
    if (!running) {
      await previous.served.close();
      await rm(previous.info.kubeconfig, { force: true });
      await this.publish();
      return;
    }
    this.s.output.append(endpointStartedLines(running.info.url, running.info.kubeconfig, running.info.contexts, why));
  }

  /** Listens and writes the kubeconfig; on failure says why and returns undefined. */
  private async serve(host: ClusterHost, port: number, previous?: ServedApi): Promise<Running | undefined> {
    let served: ServedApi;
    try {
      served = await host.serveApi(port, previous?.tls);
    } catch (err) {
      this.failed(endpointErrorText(err, port));
      return undefined;
    }
    const dir = this.s.context.globalStorageUri.fsPath;
    const file = path.join(dir, kubeconfigFileName(served.port));
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(file, served.kubeconfig, { mode: 0o600 });
      // writeFile's mode applies only to a file it creates.
      await chmod(file, 0o600);
    } catch (err) {
      await served.close();
      this.failed(`KubeSim: cannot write the kubeconfig ${file}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
    this.running = { served, info: { url: served.url, port: served.port, kubeconfig: file, contexts: served.contexts } };
    await this.publish();
    return this.running;
  }

  private async close(running: Running): Promise<void> {
    this.running = undefined;
    await running.served.close();
    await rm(running.info.kubeconfig, { force: true });
    await this.publish();
  }

  /** The context key and the status bar tooltip follow the state. */
  private async publish(): Promise<void> {
    const info = this.running?.info;
    await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, info !== undefined);
    await this.statusBar.setTooltipLines(info ? endpointTooltipLines(info.url, info.kubeconfig) : []);
  }

  private failed(message: string): void {
    this.s.output.append([`# ${message}`, '']);
    this.s.output.notify('error', message);
  }

  /** The notification; its buttons open a terminal ready for kubectl or copy the export command. */
  private notify(info: EndpointInfo): void {
    const terminal = 'Open Terminal';
    const copy = 'Copy export Command';
    void vscode.window.showInformationMessage(endpointNotice(info.url, info.kubeconfig), terminal, copy).then(async (choice) => {
      if (choice === terminal) vscode.window.createTerminal({ name: TERMINAL_NAME, env: { KUBECONFIG: info.kubeconfig } }).show();
      if (choice === copy) await vscode.env.clipboard.writeText(exportCommand(info.kubeconfig));
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Deactivation: the server closes (the host's disposal closes it too) and its kubeconfig goes. */
  dispose(): void {
    this.subscription.dispose();
    const running = this.running ?? this.resume;
    this.running = undefined;
    this.resume = undefined;
    if (!running) return;
    void running.served.close();
    rmSync(running.info.kubeconfig, { force: true });
  }
}
