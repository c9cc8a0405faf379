import { strict as assert } from 'node:assert';
import { DEFAULT_SETTINGS, parseSettings, settingsChange, type KubeSimSettings } from '../../../src/extension/settings';

const read = (values: Record<string, unknown>) => parseSettings((key) => values[key]);

describe('kubesim.* settings', () => {
  it('defaults when nothing is set', () => {
    assert.deepEqual(read({}), { settings: DEFAULT_SETTINGS, problems: [] });
  });

  it('reads every setting', () => {
    const { settings, problems } = read({
      'nodes.count': 5,
      'nodes.cpu': '2500m',
      'nodes.memory': '8Gi',
      'nodes.pods': 30,
      'nodes.labels': { tier: 'gold' },
      'nodes.taints': [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      'nodes.zones': ['eu-1a'],
      speed: 10,
      seed: 'demo',
      user: 'jane:dev',
      fieldValidation: 'Warn',
      persistence: false,
      traceBufferSize: 5000,
      metricsServer: false,
      'apiEndpoint.port': 6443,
      'etcd.members': 5,
      'etcd.latency': 'model',
      'etcd.rttMs': 2,
      'etcd.walFsyncMs': null,
      'etcd.quotaBackendBytes': 1_000_000,
      'engine.maxHeapMB': 4096,
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, {
      nodes: { count: 5, cpu: '2500m', memory: '8Gi', pods: 30, labels: { tier: 'gold' }, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], zones: ['eu-1a'] },
      speed: 10,
      seed: 'demo',
      user: { username: 'jane', groups: ['dev', 'system:authenticated'] },
      fieldValidation: 'Warn',
      persistence: false,
      traceBufferSize: 5000,
      metricsServer: false,
      apiEndpoint: { port: 6443 },
      etcd: { members: 5, latency: 'model', quotaBackendBytes: 1_000_000, rttMs: 2 },
      engine: { maxHeapMB: 4096 },
    });
  });

  it('falls back to the default for a bad value and says so', () => {
    const { settings, problems } = read({ 'nodes.count': 1001, 'nodes.memory': '16 GB', speed: 3, user: 'system:serviceaccount::x', 'nodes.taints': [{ key: 'a', effect: 'Sometimes' }], 'apiEndpoint.port': 70000 });
    assert.equal(settings.nodes.count, 3);
    assert.equal(settings.nodes.memory, '16Gi');
    assert.equal(settings.speed, 1);
    assert.deepEqual(settings.nodes.taints, []);
    assert.equal(settings.apiEndpoint.port, 0);
    assert.deepEqual(problems, [
      'kubesim.user: "system:serviceaccount::x" is not a service account name: use system:serviceaccount:<namespace>:<name>; using kubernetes-admin',
      'kubesim.nodes.count: 1001 is not an integer from 0 to 1000; using 3',
      'kubesim.nodes.memory: "16 GB" is not a memory quantity such as 16Gi; using "16Gi"',
      'kubesim.nodes.taints: [{"key":"a","effect":"Sometimes"}] is not a list of taints ({ key, value?, effect }); using []',
      'kubesim.speed: 3 is not one of 0.25, 0.5, 1, 2, 5, 10, 25, 50, 100; using 1',
      'kubesim.apiEndpoint.port: 70000 is not an integer from 0 to 65535; using 0',
    ]);
  });

  it('tells what a change does to a running cluster: adjusted now, or at the next reset', () => {
    const before = DEFAULT_SETTINGS;
    const after: KubeSimSettings = { ...before, speed: 5, user: { username: 'jane', groups: [] }, nodes: { ...before.nodes, count: 5, cpu: '8' }, seed: 'x' };
    assert.deepEqual(settingsChange(before, after), { speed: true, user: true, fieldValidation: false, persistence: false, addNodes: 2, needReset: ['kubesim.nodes.cpu', 'kubesim.seed'] });
    assert.deepEqual(settingsChange(before, { ...before, nodes: { ...before.nodes, count: 1 } }).needReset, ['kubesim.nodes.count']);
    assert.deepEqual(settingsChange(before, { ...before, metricsServer: false }).needReset, ['kubesim.metricsServer']);
    assert.deepEqual(settingsChange(before, { ...before, etcd: { ...before.etcd, quotaBackendBytes: 1_000_000 } }).needReset, ['kubesim.etcd.quotaBackendBytes']);
    assert.deepEqual(settingsChange(before, before), { speed: false, user: false, fieldValidation: false, persistence: false, addNodes: 0, needReset: [] });
  });
});
