/**
 * What the user reads about the API endpoint: the notification, the output channel's lines, the
 * status bar tooltip's lines and the errors, and the kubeconfig's file name. Pure (no vscode).
 */

/** The kubeconfig's file name in the extension's global storage: one per port, as windows share that folder. */
export function kubeconfigFileName(port: number): string {
  return `kubesim-${port}.kubeconfig`;
}

/** A word for a POSIX shell: as it is when it is safe, else in single quotes. */
export function shellWord(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function exportCommand(kubeconfig: string): string {
  return `export KUBECONFIG=${shellWord(kubeconfig)}`;
}

export function endpointNotice(url: string, kubeconfig: string): string {
  return `KubeSim API endpoint at ${url}. In a terminal: ${exportCommand(kubeconfig)}`;
}

/** The output channel's lines for a start; `why` says what led to it when not the Start command. */
export function endpointStartedLines(url: string, kubeconfig: string, contexts: readonly string[], why?: string): string[] {
  const [current, ...others] = contexts;
  return [
    `# ${why ? `${why}: ` : ''}API endpoint at ${url} (127.0.0.1 only); kubeconfig ${kubeconfig}, current context ${current ?? ''}`,
    exportCommand(kubeconfig),
    'kubectl get nodes',
    ...others.map((c) => `kubectl --context ${shellWord(c)} auth whoami`),
    '',
  ];
}

export function endpointStoppedLines(url: string): string[] {
  return [`# API endpoint at ${url} stopped; its tokens are revoked`, ''];
}

/** The status bar tooltip's lines while the endpoint runs. */
export function endpointTooltipLines(url: string, kubeconfig: string): string[] {
  return [`API endpoint: ${url}`, `In a terminal: ${exportCommand(kubeconfig)}`];
}

/** A failure to listen, in words: the port taken or forbidden, or the error's own message. */
export function endpointErrorText(err: unknown, port: number): string {
  const code = (err as { code?: unknown } | null)?.code;
  const where = `127.0.0.1:${port}`;
  const fix = 'set kubesim.apiEndpoint.port to another port, or to 0 for a free one';
  if (code === 'EADDRINUSE') return `KubeSim: cannot start the API endpoint: ${where} is already in use (EADDRINUSE); ${fix}.`;
  if (code === 'EACCES') return `KubeSim: cannot start the API endpoint: no permission to listen on ${where} (EACCES); ${fix}.`;
  return `KubeSim: cannot start the API endpoint on ${where}: ${err instanceof Error ? err.message : String(err)}`;
}
