import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import { AGE, NAME, podTemplateColumns, replicatedPodsPrinter, templatePodSpec } from '../../../src/engine/printers/common';
import { findCondition, formatLabels, formatLabelSelector, joinWithMore, kindSlashName, listWithMore, loadBalancerAddresses, noneIfEmpty, strMap, unknownIfEmpty } from '../../../src/engine/printers/format';
import { col, tablePrinter, wide } from '../../../src/engine/printers/table';

const NOW = Date.parse('2025-01-01T01:00:00Z');
const object = (rest: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Thing', metadata: { name: 't', creationTimestamp: '2025-01-01T00:00:00Z' }, ...rest });

describe('printers: shared helpers', () => {
  it('joinWithMore: the items shown, then " + N more..." for the rest of the total', () => {
    const cases: [string[], number, string | undefined, string][] = [
      [[], 0, undefined, ''],
      [['a'], 1, undefined, 'a'],
      [['a', 'b', 'c'], 3, undefined, 'a,b,c'],
      [['a', 'b', 'c'], 5, undefined, 'a,b,c + 2 more...'],
      [['x: 1/2', 'y: 3/4'], 3, ', ', 'x: 1/2, y: 3/4 + 1 more...'],
      [[], 2, undefined, ' + 2 more...'],
    ];
    for (const [shown, total, sep, want] of cases) assert.equal(joinWithMore(shown, total, sep), want, JSON.stringify([shown, total, sep]));
  });

  it('listWithMore: the first max items, "<unset>" when nothing shows', () => {
    const cases: [string[], number, string][] = [
      [[], 3, '<unset>'],
      [[''], 3, '<unset>'],
      [['80'], 3, '80'],
      [['80', '443', '8080'], 3, '80,443,8080'],
      [['80', '443', '8080', '9090'], 3, '80,443,8080 + 1 more...'],
      [['', '', '', ''], 3, ',, + 1 more...'],
    ];
    for (const [items, max, want] of cases) assert.equal(listWithMore(items, max), want, JSON.stringify(items));
  });

  it('loadBalancerAddresses: IPs, else hostnames, sorted, once each', () => {
    const cases: [unknown, string][] = [
      [undefined, ''],
      [{ ingress: [] }, ''],
      [{ ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example' }, { ip: '10.0.0.1', hostname: 'ignored' }] }, '10.0.0.1,10.0.0.2,lb.example'],
      [{ ingress: [{ ip: '1.2.3.4' }, { ip: '1.2.3.4' }, {}] }, '1.2.3.4'],
      [{ ingress: 'not a list' }, ''],
    ];
    for (const [lb, want] of cases) assert.equal(loadBalancerAddresses(lb), want, JSON.stringify(lb));
  });

  it('noneIfEmpty / unknownIfEmpty: the placeholder for an empty or non-string field', () => {
    const cases: [unknown, string, string][] = [
      ['n1', 'n1', 'n1'],
      ['', '<none>', '<unknown>'],
      [undefined, '<none>', '<unknown>'],
      [null, '<none>', '<unknown>'],
      [7, '<none>', '<unknown>'],
    ];
    for (const [v, none, unknown] of cases) {
      assert.equal(noneIfEmpty(v), none);
      assert.equal(unknownIfEmpty(v), unknown);
    }
  });

  it('findCondition: the first condition of the type; kindSlashName: "Kind/name"', () => {
    const conditions = [{ type: 'Ready', status: 'False' }, 'junk', { type: 'Healthy', status: 'True', message: 'ok' }, { type: 'Healthy', status: 'False' }];
    assert.deepEqual(findCondition(conditions, 'Healthy'), { type: 'Healthy', status: 'True', message: 'ok' });
    assert.equal(findCondition(conditions, 'Available'), undefined);
    assert.equal(findCondition(undefined, 'Ready'), undefined);
    assert.equal(kindSlashName({ kind: 'Deployment', name: 'web' }), 'Deployment/web');
    assert.equal(kindSlashName(undefined), '/');
  });
});

describe('printers: tablePrinter', () => {
  it('lists the column definitions in order and reads each cell from its column', () => {
    const printer = tablePrinter([NAME, col('Phase', 'string', 'the phase', (r) => String(r.status.phase ?? '')), wide('Replicas', 'integer', 'wanted', (r) => Number(r.spec.replicas ?? 0)), AGE]);
    assert.deepEqual(
      printer.columns.map((c) => [c.name, c.type, c.format, c.priority]),
      [
        ['Name', 'string', 'name', 0],
        ['Phase', 'string', '', 0],
        ['Replicas', 'integer', '', 1],
        ['Age', 'string', '', 0],
      ],
    );
    assert.deepEqual(printer.cells(object({ spec: { replicas: 2 }, status: { phase: 'Up' } }), { now: NOW }), ['t', 'Up', 2, '60m']);
    // spec and status read as {} when absent or not objects.
    assert.deepEqual(printer.cells(object({ spec: 'x', status: null }), { now: NOW }), ['t', '', 0, '60m']);
    assert.equal(printer.conditions, undefined);
  });

  it('works out the view once a row, and passes the conditions on', () => {
    let calls = 0;
    const printer = tablePrinter<{ n: number }>([col('A', 'integer', '', (r) => r.view.n), col('B', 'integer', '', (r) => r.view.n * 10)], {
      view: () => ({ n: ++calls }),
      conditions: (o) => [{ type: 'Completed', status: String(o.metadata.name) }],
    });
    assert.deepEqual(printer.cells(object(), { now: NOW }), [1, 10]);
    assert.deepEqual(printer.cells(object(), { now: NOW }), [2, 20]);
    assert.deepEqual(printer.conditions?.(object()), [{ type: 'Completed', status: 't' }]);
  });

  it('podTemplateColumns: AGE, then the wide containers and images of the template found', () => {
    const printer = tablePrinter(podTemplateColumns(templatePodSpec));
    assert.deepEqual(printer.columns.map((c) => [c.name, c.priority]), [['Age', 0], ['Containers', 1], ['Images', 1]]);
    const o = object({ spec: { template: { spec: { containers: [{ name: 'a', image: 'nginx' }, { name: 'b', image: 'busybox:1' }] } } } });
    assert.deepEqual(printer.cells(o, { now: NOW }), ['60m', 'a,b', 'nginx,busybox:1']);
    assert.deepEqual(printer.cells(object(), { now: NOW }), ['60m', '', '']);
  });

  it('replicatedPodsPrinter: DESIRED CURRENT READY, the template, and the selector as the kind formats it', () => {
    const descriptions = { desired: 'd', current: 'c', ready: 'r', selector: 's' };
    const rs = replicatedPodsPrinter(descriptions, (spec) => formatLabelSelector(spec.selector));
    const rc = replicatedPodsPrinter(descriptions, (spec) => formatLabels(strMap(spec.selector)));
    assert.deepEqual(rs.columns.map((c) => [c.name, c.type, c.description, c.priority]), [
      ['Name', 'string', NAME.definition.description, 0],
      ['Desired', 'integer', 'd', 0],
      ['Current', 'integer', 'c', 0],
      ['Ready', 'integer', 'r', 0],
      ['Age', 'string', AGE.definition.description, 0],
      ['Containers', 'string', 'Names of each container in the template.', 1],
      ['Images', 'string', 'Images referenced by each container in the template.', 1],
      ['Selector', 'string', 's', 1],
    ]);
    const template = { spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const set = object({ spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template }, status: { replicas: 3, readyReplicas: 2 } });
    assert.deepEqual(rs.cells(set, { now: NOW }), ['t', 3, 3, 2, '60m', 'c', 'nginx', 'app=web']);
    const controller = object({ spec: { replicas: 1, selector: { app: 'web', tier: 'fe' }, template }, status: {} });
    assert.deepEqual(rc.cells(controller, { now: NOW }), ['t', 1, 0, 0, '60m', 'c', 'nginx', 'app=web,tier=fe']);
  });
});
