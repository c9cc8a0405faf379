import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import { printerFor, printTable, renderTable } from '../../../src/engine/printers';

const NOW = Date.parse('2025-01-01T00:00:42Z');
const deploy = (name: string, ns: string, ready: number): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns, creationTimestamp: '2025-01-01T00:00:00Z' },
  spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  status: { readyReplicas: ready, updatedReplicas: 2, availableReplicas: ready },
});

describe('printers: text like kubectl', () => {
  const table = printTable(printerFor('apps', 'deployments'), [deploy('web', 'default', 2), deploy('api-server', 'shop', 0)], NOW);

  it('aligns columns as kubectl\'s tabwriter does (3 spaces of padding, no padding after the last)', () => {
    assert.equal(renderTable(table), ['NAME         READY   UP-TO-DATE   AVAILABLE   AGE', 'web          2/2     2            2           42s', 'api-server   0/2     2            0           42s', ''].join('\n'));
  });

  it('adds the wide columns, NAMESPACE, or leaves out the headers (columns are at least 6 wide)', () => {
    assert.equal(renderTable(table, { wide: true }).split('\n')[0], 'NAME         READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES   SELECTOR');
    assert.equal(renderTable(table, { withNamespace: true }).split('\n')[2], 'shop        api-server   0/2     2            0           42s');
    assert.equal(renderTable(table, { noHeaders: true }).split('\n')[0], 'web          2/2   2     2     42s');
  });

  it('cuts a cell at its first line break', () => {
    const t = { ...table, rows: [{ cells: ['x', 'first line\nsecond', 1, 1, '1s'], object: null }] };
    assert.equal(renderTable(t, { noHeaders: true }), 'x     first line...   1     1     1s\n');
  });
});
