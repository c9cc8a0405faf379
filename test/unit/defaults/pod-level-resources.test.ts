import { strict as assert } from 'node:assert';
import { podSpec } from './defaulted';

// Pod-level resources defaulting (PodLevelResources, on in 1.35): defaultPodRequests and
// defaultHugePagePodLimits in pkg/apis/core/v1/defaults.go, cases after TestSetDefaultPodRequests
// and TestSetDefaultHugePagePodLimits in defaults_test.go.
describe('defaults: pod-level resources', () => {
  const c = (name: string, resources: object, extra: object = {}) => ({ name, image: 'i:1', resources, ...extra });

  const table: { name: string; spec: object; want: unknown }[] = [
    {
      name: 'no pod-level resources: nothing added',
      spec: { containers: [c('a', { requests: { cpu: '1' } })] },
      want: undefined,
    },
    {
      name: 'pod limits only, no container requests: requests = limits',
      spec: { resources: { limits: { cpu: '2', memory: '1Gi' } }, containers: [c('a', {})] },
      want: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '2', memory: '1Gi' } },
    },
    {
      name: 'pod limits, container requests: requests = aggregated container requests',
      spec: {
        resources: { limits: { cpu: '2', memory: '1Gi' } },
        containers: [c('a', { requests: { cpu: '100m' } }), c('b', { requests: { cpu: '200m', memory: '100Mi' } })],
      },
      want: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '300m', memory: '100Mi' } },
    },
    {
      name: 'container limits become container requests before pod requests are aggregated',
      spec: {
        resources: { limits: { cpu: '4' } },
        containers: [c('a', { limits: { cpu: '1' } }), c('b', { limits: { cpu: '500m' } })],
      },
      want: { limits: { cpu: '4' }, requests: { cpu: '1500m' } },
    },
    {
      name: 'explicit pod requests stay',
      spec: {
        resources: { limits: { cpu: '2' }, requests: { cpu: '1' } },
        containers: [c('a', { requests: { cpu: '100m' } })],
      },
      want: { limits: { cpu: '2' }, requests: { cpu: '1' } },
    },
    {
      name: 'sidecars add up, an init container needs itself plus earlier sidecars, the peak wins',
      spec: {
        resources: { limits: { memory: '8Gi' } },
        initContainers: [
          c('sidecar', { requests: { memory: '1Gi' } }, { restartPolicy: 'Always' }),
          c('init', { requests: { memory: '4Gi' } }),
        ],
        containers: [c('app', { requests: { memory: '2Gi' } })],
      },
      want: { limits: { memory: '8Gi' }, requests: { memory: '5Gi' } },
    },
    {
      name: 'pod requests without pod limits: no request defaulting',
      spec: { resources: { requests: { cpu: '1' } }, containers: [c('a', { requests: { memory: '1Gi' } })] },
      want: { requests: { cpu: '1' } },
    },
    {
      name: 'hugepages limits default to the containers aggregate, and requests then follow the limit',
      spec: {
        resources: { requests: { cpu: '1' } },
        containers: [c('a', { limits: { 'hugepages-2Mi': '4Mi' } }), c('b', { limits: { 'hugepages-2Mi': '2Mi' } })],
      },
      want: { requests: { cpu: '1', 'hugepages-2Mi': '6Mi' }, limits: { 'hugepages-2Mi': '6Mi' } },
    },
    {
      name: 'hugepages limits are not defaulted when the pod requests that size',
      spec: {
        resources: { requests: { 'hugepages-2Mi': '2Mi' } },
        containers: [c('a', { limits: { 'hugepages-2Mi': '4Mi' } })],
      },
      want: { requests: { 'hugepages-2Mi': '2Mi' } },
    },
    {
      name: 'hugepages requests come from pod limits, not from container requests',
      spec: {
        resources: { limits: { memory: '1Gi', 'hugepages-1Gi': '2Gi' } },
        containers: [c('a', { requests: { 'hugepages-1Gi': '1Gi', memory: '100Mi' } })],
      },
      want: { limits: { memory: '1Gi', 'hugepages-1Gi': '2Gi' }, requests: { memory: '100Mi', 'hugepages-1Gi': '2Gi' } },
    },
    {
      name: 'unsupported resources are not defaulted at pod level',
      spec: {
        resources: { limits: { cpu: '1', 'example.com/gpu': '1' } },
        containers: [c('a', { requests: { 'ephemeral-storage': '1Gi' } })],
      },
      want: { limits: { cpu: '1', 'example.com/gpu': '1' }, requests: { cpu: '1' } },
    },
  ];
  for (const t of table) {
    it(t.name, () => assert.deepEqual(podSpec(t.spec).resources, t.want));
  }
});
