import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:net';
import { endpointErrorText, endpointNotice, endpointStartedLines, endpointStoppedLines, endpointTooltipLines, exportCommand, kubeconfigFileName, shellWord } from '../../../src/extension/endpoint/text';
import { statusBarTooltip, type ClusterSummary } from '../../../src/extension/status-text';

const KUBECONFIG = '/home/jane/.vscode-server/data/User/globalStorage/kubesim.kubesim/kubesim-41234.kubeconfig';

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

describe('API endpoint texts', () => {
  it('the notification: where it serves and the export line', () => {
    assert.equal(kubeconfigFileName(41234), 'kubesim-41234.kubeconfig');
    assert.equal(endpointNotice('https://127.0.0.1:41234', KUBECONFIG), `KubeSim API endpoint at https://127.0.0.1:41234. In a terminal: export KUBECONFIG=${KUBECONFIG}`);
  });

  it('quotes a path the shell would split (macOS keeps global storage under "Application Support")', () => {
    assert.equal(shellWord('/tmp/a-b_c.d/kubesim-1.kubeconfig'), '/tmp/a-b_c.d/kubesim-1.kubeconfig');
    assert.equal(exportCommand('/Users/jane/Library/Application Support/Code/User/globalStorage/kubesim.kubesim/kubesim-6443.kubeconfig'), "export KUBECONFIG='/Users/jane/Library/Application Support/Code/User/globalStorage/kubesim.kubesim/kubesim-6443.kubeconfig'");
    assert.equal(shellWord("/home/o'neil/$x"), `'/home/o'\\''neil/$x'`);
    assert.equal(shellWord(''), "''");
  });

  it('the output channel: the address, the export line, how to use each context', () => {
    assert.deepEqual(endpointStartedLines('https://127.0.0.1:6443', '/s/kubesim-6443.kubeconfig', ['kubesim', 'kubesim-jane']), [
      '# API endpoint at https://127.0.0.1:6443 (127.0.0.1 only); kubeconfig /s/kubesim-6443.kubeconfig, current context kubesim',
      'export KUBECONFIG=/s/kubesim-6443.kubeconfig',
      'kubectl get nodes',
      'kubectl --context kubesim-jane auth whoami',
      '',
    ]);
    assert.equal(endpointStartedLines('https://127.0.0.1:6443', '/s/k', ['kubesim'], 'the cluster was replaced')[0], '# the cluster was replaced: API endpoint at https://127.0.0.1:6443 (127.0.0.1 only); kubeconfig /s/k, current context kubesim');
    assert.deepEqual(endpointStoppedLines('https://127.0.0.1:6443'), ['# API endpoint at https://127.0.0.1:6443 stopped; its tokens are revoked', '']);
  });

  it('the status bar tooltip says where the endpoint serves, before the click hint', () => {
    const s: ClusterSummary = { revision: 7, nodes: { total: 4, ready: 4 }, pods: { running: 0, pending: 0, failed: 0 }, clock: 'paused', speed: 1, time: Date.parse('2025-01-01T00:00:00Z'), user: 'kubernetes-admin' };
    const lines = statusBarTooltip(s, endpointTooltipLines('https://127.0.0.1:6443', '/s/k')).split('\n');
    assert.deepEqual(lines.slice(-3), ['API endpoint: https://127.0.0.1:6443', 'In a terminal: export KUBECONFIG=/s/k', 'Click to open the control plane.']);
  });

  it('a port in use, as the user can act on it', async () => {
    const taken = createServer();
    await listen(taken, 0);
    const port = (taken.address() as { port: number }).port;
    const second = createServer();
    try {
      const err = await listen(second, port).then(() => assert.fail('the port was free'), (e: unknown) => e);
      assert.equal(endpointErrorText(err, port), `KubeSim: cannot start the API endpoint: 127.0.0.1:${port} is already in use (EADDRINUSE); set kubesim.apiEndpoint.port to another port, or to 0 for a free one.`);
    } finally {
      taken.close();
      second.close();
    }
    assert.equal(endpointErrorText(Object.assign(new Error('listen EACCES: permission denied 127.0.0.1:80'), { code: 'EACCES' }), 80), 'KubeSim: cannot start the API endpoint: no permission to listen on 127.0.0.1:80 (EACCES); set kubesim.apiEndpoint.port to another port, or to 0 for a free one.');
    assert.equal(endpointErrorText(new Error('boom'), 0), 'KubeSim: cannot start the API endpoint on 127.0.0.1:0: boom');
  });
});
