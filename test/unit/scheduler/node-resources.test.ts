import { strict as assert } from 'node:assert';
import { BalancedAllocation } from '../../../src/engine/scheduler/plugins/balanced-allocation';
import { NodeResourcesFit } from '../../../src/engine/scheduler/plugins/node-resources-fit';
import { containers, node, pod, runFilter, runScore, snapshot } from './helpers';

const cap = (cpu: string, memory: string): Record<string, string> => ({ cpu, memory });

describe('NodeResourcesFit: LeastAllocated score (least_allocated_test.go)', () => {
  const fit = new NodeResourcesFit();
  const cases: { name: string; pod: ReturnType<typeof pod>; nodes: ReturnType<typeof node>[]; existing?: ReturnType<typeof pod>[]; want: number[] }[] = [
    {
      name: 'nothing scheduled, nothing requested',
      pod: pod(),
      nodes: [node('node1', { allocatable: cap('4000', '10000') }), node('node2', { allocatable: cap('4000', '10000') })],
      want: [100, 100],
    },
    {
      name: 'nothing scheduled, resources requested, differently sized nodes',
      pod: pod({ spec: { containers: containers({ cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }) } }),
      nodes: [node('node1', { allocatable: cap('4000', '10000') }), node('node2', { allocatable: cap('6000', '10000') })],
      want: [37, 50],
    },
    {
      name: 'no resources requested, pods scheduled',
      pod: pod(),
      nodes: [node('node1', { allocatable: cap('4000', '10000') }), node('node2', { allocatable: cap('4000', '10000') })],
      existing: [pod({ nodeName: 'node1' }), pod({ nodeName: 'node1' }), pod({ nodeName: 'node2' }), pod({ nodeName: 'node2' })],
      want: [100, 100],
    },
    {
      name: 'no resources requested, pods scheduled with resources',
      pod: pod(),
      nodes: [node('node1', { allocatable: cap('10000', '20000') }), node('node2', { allocatable: cap('10000', '20000') })],
      existing: [
        pod({ nodeName: 'node1', spec: { containers: containers({ cpu: '3000', memory: '0' }) } }),
        pod({ nodeName: 'node1', spec: { containers: containers({ cpu: '3000', memory: '0' }) } }),
        pod({ nodeName: 'node2', spec: { containers: containers({ cpu: '3000', memory: '0' }) } }),
        pod({ nodeName: 'node2', spec: { containers: containers({ cpu: '3000', memory: '5000' }) } }),
      ],
      want: [70, 57],
    },
    {
      name: 'resources requested, pods scheduled with resources',
      pod: pod({ spec: { containers: containers({ cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }) } }),
      nodes: [node('node1', { allocatable: cap('10000', '20000') }), node('node2', { allocatable: cap('10000', '20000') })],
      existing: [
        pod({ nodeName: 'node1', spec: { containers: containers({ cpu: '3000', memory: '0' }) } }),
        pod({ nodeName: 'node2', spec: { containers: containers({ cpu: '3000', memory: '5000' }) } }),
      ],
      want: [57, 45],
    },
    {
      name: 'resources requested, pods scheduled with resources, differently sized nodes',
      pod: pod({ spec: { containers: containers({ cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }) } }),
      nodes: [node('node1', { allocatable: cap('10000', '20000') }), node('node2', { allocatable: cap('10000', '50000') })],
      existing: [
        pod({ nodeName: 'node1', spec: { containers: containers({ cpu: '3000', memory: '0' }) } }),
        pod({ nodeName: 'node2', spec: { containers: containers({ cpu: '3000', memory: '5000' }) } }),
      ],
      want: [57, 60],
    },
    {
      name: 'requested resources exceed node capacity',
      pod: pod({ spec: { containers: containers({ cpu: '3000', memory: '0' }) } }),
      nodes: [node('node1', { allocatable: cap('4000', '10000') }), node('node2', { allocatable: cap('4000', '10000') })],
      existing: [
        pod({ nodeName: 'node1', spec: { containers: containers({ cpu: '3000', memory: '0' }) } }),
        pod({ nodeName: 'node2', spec: { containers: containers({ cpu: '3000', memory: '5000' }) } }),
      ],
      want: [50, 25],
    },
    {
      name: 'zero node resources, pods scheduled with resources',
      pod: pod(),
      nodes: [node('node1'), node('node2')],
      existing: [
        pod({ nodeName: 'node1', spec: { containers: containers({ cpu: '3000', memory: '0' }) } }),
        pod({ nodeName: 'node2', spec: { containers: containers({ cpu: '3000', memory: '5000' }) } }),
      ],
      want: [0, 0],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(runScore(fit, c.pod, snapshot(c.nodes, c.existing).list), c.want);
    });
  }

  it('counts 100m CPU and 200Mi memory for a container that requests neither', () => {
    // 4 CPU, 1000Mi: (4000-100)*100/4000 = 97; (1000Mi-200Mi)*100/1000Mi = 80; mean 88.
    const p = pod({ spec: { containers: [{ name: 'c' }] } });
    assert.deepEqual(runScore(fit, p, snapshot([node('n', { allocatable: cap('4', '1000Mi') })]).list), [88]);
  });
});

describe('NodeResourcesBalancedAllocation (balanced_allocation_test.go)', () => {
  const ba = new BalancedAllocation();
  // makeNode(name, milliCPU, memory) of the upstream tests.
  const mk = (name: string, milliCPU: number, memory: number): ReturnType<typeof node> => node(name, { allocatable: cap(`${milliCPU}m`, String(memory)) });
  const cpuOnly = (nodeName: string): ReturnType<typeof pod> => pod({ nodeName, spec: { containers: containers({ cpu: '1000m', memory: '0' }, { cpu: '2000m', memory: '0' }) } });
  const cpuAndMemory = (nodeName?: string): ReturnType<typeof pod> =>
    pod({ ...(nodeName ? { nodeName } : {}), spec: { containers: containers({ cpu: '1000m', memory: '2000' }, { cpu: '2000m', memory: '3000' }) } });

  it('nothing scheduled, nothing requested, skip in PreScore', () => {
    assert.equal(runScore(ba, pod(), snapshot([mk('node1', 4000, 10000), mk('node2', 4000, 10000)]).list), 'Skip');
  });
  it('nothing scheduled, resources requested, differently sized nodes', () => {
    assert.deepEqual(runScore(ba, cpuAndMemory(), snapshot([mk('node1', 4000, 10000), mk('node2', 6000, 10000)]).list), [87, 100]);
  });
  it('resources requested, pods scheduled with resources', () => {
    const s = snapshot([mk('node1', 10000, 20000), mk('node2', 10000, 20000)], [cpuOnly('node1'), cpuAndMemory('node2')]);
    assert.deepEqual(runScore(ba, cpuAndMemory(), s.list), [82, 95]);
  });
  it('resources requested, pods scheduled with resources, differently sized nodes', () => {
    const s = snapshot([mk('node1', 10000, 20000), mk('node2', 10000, 50000)], [cpuOnly('node1'), cpuAndMemory('node2')]);
    assert.deepEqual(runScore(ba, cpuAndMemory(), s.list), [82, 80]);
  });
  it('requested resources at node capacity', () => {
    const s = snapshot([mk('node1', 6000, 10000), mk('node2', 6000, 10000)], [cpuOnly('node1'), cpuAndMemory('node2')]);
    assert.deepEqual(runScore(ba, cpuOnly(''), s.list), [50, 75]);
  });
});

describe('NodeResourcesFit: Filter (fit_test.go)', () => {
  const fit = new NodeResourcesFit();
  // makeResources(milliCPU 10, memory 20, pods 32, ephemeral 20) and an existing pod of the given size.
  const nodeWith = (existing: Record<string, string> | null): ReturnType<typeof snapshot> =>
    snapshot(
      [node('machine1', { allocatable: { cpu: '10m', memory: '20', pods: '32', 'ephemeral-storage': '20' } })],
      existing ? [pod({ nodeName: 'machine1', spec: { containers: containers(existing) } })] : [],
    );
  const req = (r: Record<string, string>): ReturnType<typeof pod> => pod({ spec: { containers: containers(r) } });

  it('no resources requested always fits', () => {
    assert.equal(runFilter(fit, pod(), nodeWith({ cpu: '10m', memory: '20' }).list[0]!), 'Success');
  });
  it('too many resources fails', () => {
    assert.deepEqual(runFilter(fit, req({ cpu: '1m', memory: '1' }), nodeWith({ cpu: '10m', memory: '20' }).list[0]!), {
      code: 'Unschedulable',
      reasons: ['Insufficient cpu', 'Insufficient memory'],
    });
  });
  it('too many resources fails due to init container cpu', () => {
    const p = pod({ spec: { containers: containers({ cpu: '1m', memory: '1' }), initContainers: [{ name: 'i', resources: { requests: { cpu: '3m', memory: '1' } } }] } });
    assert.deepEqual(runFilter(fit, p, nodeWith({ cpu: '8m', memory: '19' }).list[0]!), { code: 'Unschedulable', reasons: ['Insufficient cpu'] });
  });
  it('init container requests below the containers sum fit', () => {
    const p = pod({ spec: { containers: containers({ cpu: '1m', memory: '1' }), initContainers: [{ name: 'i', resources: { requests: { cpu: '1m', memory: '1' } } }] } });
    assert.equal(runFilter(fit, p, nodeWith({ cpu: '9m', memory: '19' }).list[0]!), 'Success');
  });
  it('one resource memory fits', () => {
    assert.deepEqual(runFilter(fit, req({ cpu: '2m', memory: '1' }), nodeWith({ cpu: '9m', memory: '5' }).list[0]!), {
      code: 'Unschedulable',
      reasons: ['Insufficient cpu'],
    });
  });
  it('equal edge case', () => {
    assert.equal(runFilter(fit, req({ cpu: '5m', memory: '4' }), nodeWith({ cpu: '5m', memory: '16' }).list[0]!), 'Success');
  });
  it('a request larger than the whole node is unresolvable', () => {
    assert.deepEqual(runFilter(fit, req({ cpu: '11m' }), nodeWith(null).list[0]!), { code: 'UnschedulableAndUnresolvable', reasons: ['Insufficient cpu'] });
  });
  it('ephemeral-storage and extended resources', () => {
    assert.deepEqual(runFilter(fit, req({ 'ephemeral-storage': '25' }), nodeWith(null).list[0]!), {
      code: 'UnschedulableAndUnresolvable',
      reasons: ['Insufficient ephemeral-storage'],
    });
    assert.deepEqual(runFilter(fit, req({ 'example.com/foo': '1' }), nodeWith(null).list[0]!), {
      code: 'UnschedulableAndUnresolvable',
      reasons: ['Insufficient example.com/foo'],
    });
  });
  it('too many pods', () => {
    const s = snapshot([node('m', { allocatable: { cpu: '10', memory: '20Gi', pods: '1' } })], [pod({ nodeName: 'm' })]);
    assert.deepEqual(runFilter(fit, pod(), s.list[0]!), { code: 'Unschedulable', reasons: ['Too many pods'] });
    assert.deepEqual(runFilter(fit, req({ cpu: '20' }), s.list[0]!), { code: 'UnschedulableAndUnresolvable', reasons: ['Too many pods', 'Insufficient cpu'] });
  });
  it('pod overhead counts', () => {
    const p = pod({ spec: { containers: containers({ cpu: '1m', memory: '1' }), overhead: { cpu: '3m', memory: '13' } } });
    assert.deepEqual(runFilter(fit, p, nodeWith({ cpu: '5m', memory: '7' }).list[0]!), { code: 'Unschedulable', reasons: ['Insufficient memory'] });
    assert.equal(runFilter(fit, p, nodeWith({ cpu: '5m', memory: '6' }).list[0]!), 'Success');
  });
});
