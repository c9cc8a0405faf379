/**
 * The pod warnings of pkg/api/pod/warnings.go against upstream's own table (warnings_test.go
 * TestWarnings, ported as data: each template in its v1 JSON form and the warnings expected,
 * compared as upstream compares them: the same count and the same set), through the function the API server calls for
 * pods and every pod template.
 */
import * as assert from 'node:assert/strict';
import type { JsonObject } from '../../../src/engine/api/types';
import { Path } from '../../../src/engine/api/field';
import { podSpecWarnings, podTemplateWarnings } from '../../../src/engine/apiserver/strategies/pod-warnings';

const resources = { cpu: '100m', memory: '4m', 'ephemeral-storage': '4m' };
const deprecatedKeys = ['foo', 'beta.kubernetes.io/arch', 'beta.kubernetes.io/os', 'failure-domain.beta.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone', 'beta.kubernetes.io/instance-type'];
const vol = (source: JsonObject, name = 's'): JsonObject => ({ volumes: [{ name, ...source }] });
const projected = (sources: JsonObject[]): JsonObject => vol({ projected: { sources } }, 'foo');
const fieldRef = (path: string, fieldPath = 'metadata.name'): JsonObject => ({ fieldRef: { apiVersion: 'v1', fieldPath }, path });

const port = (protocol: string) => (containerPort: number, hostPort?: number, hostIP?: string): JsonObject => ({ containerPort, protocol, ...(hostPort !== undefined ? { hostPort } : {}), ...(hostIP ? { hostIP } : {}) });
const udp = port('UDP');
const tcp = port('TCP');
const ports = (perContainer: JsonObject[][]): JsonObject => ({ containers: perContainer.map((p, i) => ({ name: ['foo', 'bar'][i] ?? `c${i}`, ports: p })) });

const nameWarning = (at: string, first: string): string => `${at}: duplicate port name "test" with ${first}, services and probes that select ports by name will use ${first}`;

interface Case {
  name: string;
  spec: JsonObject;
  metadata?: JsonObject;
  expected: string[];
}

const cases: Case[] = [
  { name: 'photon', spec: vol({ photonPersistentDisk: {} }, 'p'), expected: ['spec.volumes[0].photonPersistentDisk: deprecated in v1.11, non-functional in v1.16+'] },
  { name: 'gitRepo', spec: vol({ gitRepo: {} }), expected: ['spec.volumes[0].gitRepo: deprecated in v1.11'] },
  { name: 'scaleIO', spec: vol({ scaleIO: {} }), expected: ['spec.volumes[0].scaleIO: deprecated in v1.16, non-functional in v1.22+'] },
  { name: 'flocker', spec: vol({ flocker: {} }), expected: ['spec.volumes[0].flocker: deprecated in v1.22, non-functional in v1.25+'] },
  { name: 'storageOS', spec: vol({ storageos: {} }), expected: ['spec.volumes[0].storageOS: deprecated in v1.22, non-functional in v1.25+'] },
  { name: 'quobyte', spec: vol({ quobyte: {} }), expected: ['spec.volumes[0].quobyte: deprecated in v1.22, non-functional in v1.25+'] },
  { name: 'glusterfs', spec: vol({ glusterfs: {} }), expected: ['spec.volumes[0].glusterfs: deprecated in v1.25, non-functional in v1.26+'] },
  { name: 'CephFS', spec: vol({ cephfs: {} }), expected: ['spec.volumes[0].cephfs: deprecated in v1.28, non-functional in v1.31+'] },
  { name: 'rbd', spec: vol({ rbd: {} }), expected: ['spec.volumes[0].rbd: deprecated in v1.28, non-functional in v1.31+'] },
  {
    name: 'overlapping paths in a configmap volume',
    spec: vol({ configMap: { name: 'foo', items: [{ key: 'foo', path: 'test' }, { key: 'bar', path: 'test' }] } }, 'Test'),
    expected: ['volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test"'],
  },
  {
    name: 'overlapping paths in a configmap volume - try to mount dir path into a file',
    spec: vol({ configMap: { name: 'foo', items: [{ key: 'foo', path: 'test' }, { key: 'bar', path: 'test/app' }] } }, 'Test'),
    expected: ['volume "Test" (ConfigMap "foo"): overlapping paths: "test/app" with "test"'],
  },
  {
    name: 'overlapping paths in a configmap volume - try to mount file into a dir path',
    spec: vol({ configMap: { name: 'foo', items: [{ key: 'bar', path: 'test/app' }, { key: 'foo', path: 'test' }] } }, 'Test'),
    expected: ['volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test/app"'],
  },
  {
    name: 'overlapping paths in a secret volume',
    spec: vol({ secret: { secretName: 'foo', items: [{ key: 'foo', path: 'test' }, { key: 'bar', path: 'test' }] } }, 'Test'),
    expected: ['volume "Test" (Secret "foo"): overlapping paths: "test" with "test"'],
  },
  {
    name: 'overlapping paths in a downward api volume',
    spec: vol({ downwardAPI: { items: [fieldRef('test'), fieldRef('test', 'metadata.labels')] } }, 'Test'),
    expected: ['volume "Test" (DownwardAPI): overlapping paths: "test" with "test"'],
  },
  {
    name: 'overlapping paths in projected volume - service account and config',
    spec: projected([{ configMap: { name: 'Test', items: [{ key: 'foo', path: 'test' }] } }, { serviceAccountToken: { path: 'test' } }]),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (ConfigMap "Test")'],
  },
  {
    name: 'overlapping paths in projected volume volume: service account dir and config file',
    spec: projected([{ configMap: { name: 'Test', items: [{ key: 'foo', path: 'test' }] } }, { serviceAccountToken: { path: 'test/file' } }]),
    expected: ['volume "foo" (Projected): overlapping paths: "test/file" (ServiceAccountToken) with "test" (ConfigMap "Test")'],
  },
  {
    name: 'overlapping paths in projected volume - service account file and config dir',
    spec: projected([{ configMap: { name: 'Test', items: [{ key: 'foo', path: 'test/file' }] } }, { serviceAccountToken: { path: 'test' } }]),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test/file" (ConfigMap "Test")'],
  },
  {
    name: 'overlapping paths in projected volume - service account and secret',
    spec: projected([{ secret: { name: 'Test', items: [{ key: 'foo', path: 'test' }] } }, { serviceAccountToken: { path: 'test' } }]),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (Secret "Test")'],
  },
  {
    name: 'overlapping paths in projected volume - service account and downward api',
    spec: projected([{ downwardAPI: { items: [fieldRef('test')] } }, { serviceAccountToken: { path: 'test' } }]),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (DownwardAPI)'],
  },
  {
    name: 'overlapping paths in projected volume - service account and cluster trust bundle',
    spec: projected([{ clusterTrustBundle: { name: 'Test', path: 'test' } }, { serviceAccountToken: { path: 'test' } }]),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (ClusterTrustBundle "Test")'],
  },
  {
    name: 'overlapping paths in projected volume - service account and cluster trust bundle with signer name',
    spec: projected([{ clusterTrustBundle: { signerName: 'Test', path: 'test' } }, { serviceAccountToken: { path: 'test' } }]),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (ClusterTrustBundle "Test")'],
  },
  {
    name: 'overlapping paths in projected volume - secret and config map',
    spec: projected([{ secret: { name: 'TestSecret', items: [{ key: 'mykey', path: 'test' }] } }, { configMap: { name: 'TestConfigMap', items: [{ key: 'mykey', path: 'test/test1' }] } }]),
    expected: ['volume "foo" (Projected): overlapping paths: "test/test1" (ConfigMap "TestConfigMap") with "test" (Secret "TestSecret")'],
  },
  {
    name: 'overlapping paths in projected volume - config map and downward api',
    spec: projected([{ secret: { name: 'TestSecret', items: [{ key: 'mykey', path: 'test' }] } }, { downwardAPI: { items: [fieldRef('test/test2')] } }]),
    expected: ['volume "foo" (Projected): overlapping paths: "test/test2" (DownwardAPI) with "test" (Secret "TestSecret")'],
  },
  {
    name: 'overlapping paths in projected volume - downward api and cluster thrust bundle api',
    spec: projected([{ downwardAPI: { items: [fieldRef('test/test2')] } }, { clusterTrustBundle: { name: 'Test', path: 'test' } }]),
    expected: ['volume "foo" (Projected): overlapping paths: "test" (ClusterTrustBundle "Test") with "test/test2" (DownwardAPI)'],
  },
  {
    name: 'overlapping paths in projected volume - multiple sources',
    spec: projected([
      { clusterTrustBundle: { signerName: 'Test', path: 'test/test' } },
      { downwardAPI: { items: [fieldRef('test')] } },
      { secret: { name: 'Test', items: [{ key: 'foo', path: 'test' }] } },
      { serviceAccountToken: { path: 'test' } },
    ]),
    expected: [
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (Secret "Test") with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (Secret "Test") with "test" (DownwardAPI)',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (DownwardAPI)',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (Secret "Test")',
    ],
  },
  {
    name: 'overlapping paths in projected volume - ServiceAccount vs. DownwardAPI',
    spec: projected([{ serviceAccountToken: { path: 'test/test2' } }, { downwardAPI: { items: [fieldRef('test'), fieldRef('test')] } }]),
    expected: [
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test2" (ServiceAccountToken)',
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test2" (ServiceAccountToken)',
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test" (DownwardAPI)',
    ],
  },
  { name: 'empty sources in projected volume', spec: projected([{}]), expected: ['volume "foo" (Projected) has no sources provided'] },
  {
    name: 'duplicate hostAlias',
    spec: { hostAliases: [{ ip: '1.1.1.1' }, { ip: '1.1.1.1' }, { ip: '1.1.1.1' }] },
    expected: ['spec.hostAliases[1].ip: duplicate ip "1.1.1.1"', 'spec.hostAliases[2].ip: duplicate ip "1.1.1.1"'],
  },
  {
    name: 'duplicate imagePullSecret',
    spec: { imagePullSecrets: [{ name: 'a' }, { name: 'a' }, { name: 'a' }] },
    expected: ['spec.imagePullSecrets[1].name: duplicate name "a"', 'spec.imagePullSecrets[2].name: duplicate name "a"'],
  },
  { name: 'empty imagePullSecret', spec: { imagePullSecrets: [{ name: '' }] }, expected: ['spec.imagePullSecrets[0].name: invalid empty name ""'] },
  {
    name: 'duplicate env',
    spec: {
      initContainers: [{ env: [{ name: 'a', value: 'a' }, { name: 'a', value: 'a' }, { name: 'a', value: 'other' }, { name: 'a', value: '' }, { name: 'a', value: '$(a)' }, { name: 'a', valueFrom: {} }, { name: 'a', value: '$(a) $(a)' }] }],
      containers: [{ env: [{ name: 'b', value: 'b' }, { name: 'b', value: 'b' }, { name: 'b', value: 'other' }, { name: 'b', value: '' }, { name: 'b', value: '$(b)' }, { name: 'b', valueFrom: {} }, { name: 'b', value: '$(b) $(b)' }] }],
    },
    expected: [1, 2, 3, 4, 5].flatMap((i) => [
      `spec.initContainers[0].env[${i}]: hides previous definition of "a", which may be dropped when using apply`,
      `spec.containers[0].env[${i}]: hides previous definition of "b", which may be dropped when using apply`,
    ]),
  },
  {
    name: 'fractional resources',
    spec: { initContainers: [{ resources: { requests: resources, limits: resources } }], containers: [{ resources: { requests: resources, limits: resources } }], overhead: resources },
    expected: [
      ...['initContainers', 'containers'].flatMap((c) =>
        ['requests', 'limits'].flatMap((k) => ['ephemeral-storage', 'memory'].map((r) => `spec.${c}[0].resources.${k}[${r}]: fractional byte value "4m" is invalid, must be an integer`)),
      ),
      'spec.overhead[ephemeral-storage]: fractional byte value "4m" is invalid, must be an integer',
      'spec.overhead[memory]: fractional byte value "4m" is invalid, must be an integer',
    ],
  },
  {
    name: 'node labels in nodeSelector',
    spec: { nodeSelector: Object.fromEntries(deprecatedKeys.slice(1).map((k) => [k, 'true'])) },
    expected: [
      'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
      'spec.nodeSelector[beta.kubernetes.io/instance-type]: deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
      'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.nodeSelector[failure-domain.beta.kubernetes.io/region]: deprecated since v1.17; use "topology.kubernetes.io/region" instead',
      'spec.nodeSelector[failure-domain.beta.kubernetes.io/zone]: deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    ],
  },
  {
    name: 'node labels in affinity requiredDuringSchedulingIgnoredDuringExecution',
    spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: deprecatedKeys.map((key) => ({ key })) }] } } } },
    expected: affinityWarnings('spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions'),
  },
  {
    name: 'node labels in affinity preferredDuringSchedulingIgnoredDuringExecution',
    spec: { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ preference: { matchExpressions: deprecatedKeys.map((key) => ({ key })) } }] } } },
    expected: affinityWarnings('spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions'),
  },
  {
    name: 'node labels in topologySpreadConstraints',
    spec: { topologySpreadConstraints: deprecatedKeys.map((topologyKey) => ({ topologyKey, labelSelector: {} })) },
    expected: affinityWarnings('spec.topologySpreadConstraints', 'topologyKey'),
  },
  {
    name: 'annotations',
    metadata: {
      annotations: {
        foo: 'bar',
        'scheduler.alpha.kubernetes.io/critical-pod': 'true',
        'seccomp.security.alpha.kubernetes.io/pod': 'default',
        'container.seccomp.security.alpha.kubernetes.io/foo': 'default',
        'security.alpha.kubernetes.io/sysctls': 'a,b,c',
        'security.alpha.kubernetes.io/unsafe-sysctls': 'd,e,f',
      },
    },
    spec: { containers: [{ name: 'foo' }] },
    expected: [
      'metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
      'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[container.seccomp.security.alpha.kubernetes.io/foo]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
      'metadata.annotations[security.alpha.kubernetes.io/unsafe-sysctls]: non-functional in v1.11+; use the "sysctls" field instead',
    ],
  },
  {
    name: 'seccomp fields',
    metadata: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'default', 'container.seccomp.security.alpha.kubernetes.io/foo': 'default' } },
    spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'foo', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }] },
    expected: [],
  },
  {
    name: 'pod with ephemeral volume source 200Mi',
    spec: vol({ ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '200Mi' } } } } } }, 'ephemeral-volume'),
    expected: [],
  },
  {
    name: 'pod with ephemeral volume source 200m',
    spec: vol({ ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '200m' } } } } } }, 'ephemeral-volume'),
    expected: ['spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "200m" is invalid, must be an integer'],
  },
  { name: 'terminationGracePeriodSeconds is negative', spec: { terminationGracePeriodSeconds: -1 }, expected: ['spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1'] },
  {
    name: 'null LabelSelector in topologySpreadConstraints',
    spec: { topologySpreadConstraints: [{ labelSelector: {} }, { labelSelector: null }] },
    expected: ['spec.topologySpreadConstraints[1].labelSelector: a null labelSelector results in matching no pod'],
  },
  {
    name: 'null LabelSelector in PodAffinity',
    spec: {
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {} }, { labelSelector: null }],
          preferredDuringSchedulingIgnoredDuringExecution: [{ podAffinityTerm: { labelSelector: {} } }, { podAffinityTerm: { labelSelector: null } }],
        },
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {} }, { labelSelector: null }],
          preferredDuringSchedulingIgnoredDuringExecution: [{ podAffinityTerm: { labelSelector: {} } }, { podAffinityTerm: { labelSelector: null } }],
        },
      },
    },
    expected: [
      'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod',
      'spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod',
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].labelSelector: a null labelSelector results in matching no pod',
      'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod',
    ],
  },
  { name: 'container no ports', spec: ports([[]]), expected: [] },
  { name: 'one container, one port', spec: ports([[{ containerPort: 80, hostPort: 80 }]]), expected: [] },
  { name: 'one container, two ports, same protocol, different ports', spec: ports([[udp(80), udp(81)]]), expected: [] },
  { name: 'one container, two ports, different protocols, same port', spec: ports([[udp(80), tcp(80)]]), expected: [] },
  { name: 'one container, two ports, same protocol, same port, different hostport', spec: ports([[tcp(80, 80), tcp(80, 81)]]), expected: [] },
  { name: 'one container, two ports, same protocol, port and hostPort, different hostIP', spec: ports([[tcp(80, 80, '10.0.0.1'), tcp(80, 80, '10.0.0.2')]]), expected: [] },
  { name: 'two containers, one port each, same protocol, different ports', spec: ports([[udp(80)], [udp(81)]]), expected: [] },
  { name: 'two containers, one port each, different protocols, same port', spec: ports([[udp(80)], [tcp(80)]]), expected: [] },
  { name: 'two containers, one port each, same protocol, same port, different hostport', spec: ports([[tcp(80, 80)], [tcp(80, 81)]]), expected: [] },
  { name: 'two containers, one port each, same protocol, port and hostPort, different hostIP', spec: ports([[tcp(80, 80, '10.0.0.1')], [tcp(80, 80, '10.0.0.2')]]), expected: [] },
  { name: 'duplicate container ports with same port and protocol', spec: ports([[udp(80), udp(80)]]), expected: ['spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]'] },
  { name: 'duplicate container ports with same port, hostPort and protocol', spec: ports([[udp(80, 80), udp(80, 80)]]), expected: ['spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]'] },
  {
    name: 'duplicate container ports with same port, host port, host IP and protocol',
    spec: ports([[udp(80, 80, '10.0.0.1'), udp(80, 80, '10.0.0.1')]]),
    expected: ['spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'one container port hostIP set without host port set',
    spec: ports([[udp(80, undefined, '10.0.0.1')]]),
    expected: ['spec.containers[0].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}'],
  },
  {
    name: 'duplicate container ports with one host port set and one without',
    spec: ports([[udp(80, 80, '10.0.0.1'), udp(80, undefined, '10.0.0.1')]]),
    expected: [
      'spec.containers[0].ports[1]: overlapping port definition with spec.containers[0].ports[0]',
      'spec.containers[0].ports[1]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}',
    ],
  },
  {
    name: 'duplicate container ports without one host IP set and two with',
    spec: ports([[udp(80, 80, '10.0.0.1'), udp(80, 80), udp(80, 80, '10.0.0.2')]]),
    expected: [
      'spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]',
      'spec.containers[0].ports[2]: dangerously ambiguous port definition with spec.containers[0].ports[1]',
    ],
  },
  {
    name: 'duplicate container ports with one host IP set and one without',
    spec: ports([[udp(80, 80, '10.0.0.1'), udp(80, 80)]]),
    expected: ['spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]'],
  },
  { name: 'duplicate containers with same port and protocol', spec: ports([[udp(80)], [udp(80)]]), expected: ['spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]'] },
  {
    name: 'duplicate containers with same port, hostPort and protocol',
    spec: ports([[udp(80, 80)], [udp(80, 80)]]),
    expected: ['spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'duplicate containers with same port, host port, host IP and protocol',
    spec: ports([[udp(80, 80, '10.0.0.1')], [udp(80, 80, '10.0.0.1')]]),
    expected: ['spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'duplicate containers with one host port set and one without',
    spec: ports([[udp(80, 80, '10.0.0.1')], [udp(80, undefined, '10.0.0.1')]]),
    expected: [
      'spec.containers[1].ports[0]: overlapping port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}',
    ],
  },
  {
    name: 'duplicate container ports without one host IP set and one with',
    spec: ports([[udp(80, 80)], [udp(80, 80, '10.0.0.1')]]),
    expected: ['spec.containers[1].ports[0]: dangerously ambiguous port definition with spec.containers[0].ports[0]'],
  },
  {
    name: 'duplicate container ports with one host IP set and one without (two containers)',
    spec: ports([[udp(80, 80, '10.0.0.1')], [udp(80, 80)]]),
    expected: ['spec.containers[1].ports[0]: dangerously ambiguous port definition with spec.containers[0].ports[0]'],
  },
  ...(['UDP', 'TCP'] as const).map((proto) => ({
    name: `${proto === 'UDP' ? 'create' : 'update'} duplicate container ports in two containers`,
    spec: {
      containers: [
        { name: 'foo1', ports: [port(proto)(80, 80), port(proto)(180, 80), port(proto)(80, 80)] },
        { name: 'foo', ports: [port(proto)(80, 80), port(proto)(80, 80)] },
      ],
    },
    expected: [
      'spec.containers[0].ports[2]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[2]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[0].ports[2]',
      'spec.containers[1].ports[1]: duplicate port definition with spec.containers[1].ports[0]',
    ],
  })),
  {
    name: 'create duplicate container ports name in two containers',
    spec: { containers: [{ name: 'foo1', ports: [{ ...udp(80), name: 'test' }] }, { name: 'foo', ports: [{ ...tcp(8090), name: 'test' }] }] },
    expected: [nameWarning('spec.containers[1].ports[0]', 'spec.containers[0].ports[0]')],
  },
  {
    name: 'update duplicate container ports name in two containers',
    spec: { containers: [{ name: 'foo1', ports: [{ ...udp(80), name: 'test' }] }, { name: 'foo', ports: [{ ...udp(8090), name: 'test1' }, { ...udp(8092), name: 'test' }] }] },
    expected: [nameWarning('spec.containers[1].ports[1]', 'spec.containers[0].ports[0]')],
  },
  {
    name: 'create duplicate container ports name in two sidecar containers',
    spec: { initContainers: [{ name: 'foo1', restartPolicy: 'Always', ports: [{ ...udp(80), name: 'test' }] }, { name: 'foo', restartPolicy: 'Always', ports: [{ ...tcp(8090), name: 'test' }] }] },
    expected: [nameWarning('spec.initContainers[1].ports[0]', 'spec.initContainers[0].ports[0]')],
  },
  {
    name: 'update duplicate container ports name in two sidecar containers',
    spec: {
      initContainers: [
        { name: 'foo1', restartPolicy: 'Always', ports: [{ ...udp(80), name: 'test' }] },
        { name: 'foo', restartPolicy: 'Always', ports: [{ ...udp(8090), name: 'test1' }, { ...udp(8091), name: 'test' }] },
      ],
    },
    expected: [nameWarning('spec.initContainers[1].ports[1]', 'spec.initContainers[0].ports[0]')],
  },
  {
    name: 'create duplicate container ports name in containers and sidecar containers',
    spec: { initContainers: [{ name: 'foo1', restartPolicy: 'Always', ports: [{ ...udp(80), name: 'test' }] }], containers: [{ name: 'foo', ports: [{ ...tcp(8090), name: 'test' }] }] },
    expected: [nameWarning('spec.containers[0].ports[0]', 'spec.initContainers[0].ports[0]')],
  },
  {
    name: 'update duplicate container ports name in containers and sidecar containers',
    spec: { initContainers: [{ name: 'foo1', restartPolicy: 'Always', ports: [{ ...udp(80), name: 'test' }] }], containers: [{ name: 'foo', ports: [{ ...udp(8090), name: 'test1' }, { ...udp(8092), name: 'test' }] }] },
    expected: [nameWarning('spec.containers[0].ports[1]', 'spec.initContainers[0].ports[0]')],
  },
];


/** TestTemplateOnlyWarnings: warnings of pod templates only, at template. */
const templateCases: Case[] = [
  {
    name: 'annotations',
    metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/foo': 'unconfined' } },
    spec: { containers: [{ name: 'foo' }] },
    expected: ['template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/foo]: deprecated since v1.30; use the "appArmorProfile" field instead'],
  },
  {
    name: 'AppArmor pod field',
    metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/foo': 'unconfined' } },
    spec: { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: [{ name: 'foo' }] },
    expected: [],
  },
  {
    name: 'AppArmor container field',
    metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/foo': 'unconfined' } },
    spec: { containers: [{ name: 'foo', securityContext: { appArmorProfile: { type: 'Unconfined' } } }] },
    expected: [],
  },
];

function affinityWarnings(at: string, field = 'key'): string[] {
  const uses: Record<string, string> = {
    'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
    'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
    'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
    'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
  };
  return deprecatedKeys.slice(1).map((k, i) => `${at}[${i + 1}].${field}: ${k} is ${uses[k]}`);
}

describe('pod warnings (pkg/api/pod warnings_test.go TestWarnings)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const actual = podSpecWarnings(undefined, c.spec, c.metadata ?? {});
      // as upstream: the same number of warnings, and the same set
      assert.deepEqual([...new Set(actual)].sort(), [...new Set(c.expected)].sort());
      assert.equal(actual.length, c.expected.length, actual.join('\n'));
    });
  }
});

describe('pod template warnings (TestTemplateOnlyWarnings)', () => {
  for (const c of templateCases) {
    it(c.name, () => {
      const actual = podTemplateWarnings(Path.root('template'), { metadata: c.metadata ?? {}, spec: c.spec });
      assert.deepEqual([...new Set(actual)].sort(), [...new Set(c.expected)].sort());
    });
  }
});
