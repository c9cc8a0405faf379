/**
 * A hand-compiled slice of the Kubernetes 1.35 OpenAPI (apps/v1 Deployment and v1 ConfigMap
 * with the parts of ObjectMeta and PodSpec the tests touch), with the extensions exactly as
 * the published schema carries them: list types and map keys, patch strategies and merge keys,
 * atomic maps, defaults of map keys.
 */
import type { SchemaNode } from '../../../src/engine/api/openapi/types';

const string: SchemaNode = { type: 'string' };
const int32: SchemaNode = { type: 'integer', format: 'int32' };
const int64: SchemaNode = { type: 'integer', format: 'int64' };
const boolean: SchemaNode = { type: 'boolean' };
const time: SchemaNode = { definition: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time', type: 'string', format: 'date-time' };
const quantity: SchemaNode = { definition: 'io.k8s.apimachinery.pkg.api.resource.Quantity', format: 'quantity' };
const intOrString: SchemaNode = { definition: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString', format: 'int-or-string', intOrString: true };
const stringMap: SchemaNode = { type: 'object', additionalProperties: string };
const atomicStrings: SchemaNode = { type: 'array', items: string, listType: 'atomic' };

const def = (name: string, properties: Record<string, SchemaNode>, extra: Partial<SchemaNode> = {}): SchemaNode => ({
  definition: name,
  type: 'object',
  properties,
  ...extra,
});
const mapList = (items: SchemaNode, keys: string[], patchMergeKey = keys[0]!, patchStrategy = 'merge'): SchemaNode => ({
  type: 'array',
  items,
  listType: 'map',
  listMapKeys: keys,
  patchStrategy,
  patchMergeKey,
});

const managedFieldsEntry = def('io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry', {
  apiVersion: string,
  fieldsType: string,
  fieldsV1: { definition: 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1', type: 'object' },
  manager: string,
  operation: string,
  subresource: string,
  time,
});

const ownerReference = def('io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference', {
  apiVersion: string,
  blockOwnerDeletion: boolean,
  controller: boolean,
  kind: string,
  name: string,
  uid: string,
});

export const objectMeta = def('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', {
  annotations: stringMap,
  creationTimestamp: time,
  deletionGracePeriodSeconds: int64,
  deletionTimestamp: time,
  finalizers: { type: 'array', items: string, listType: 'set', patchStrategy: 'merge' },
  generateName: string,
  generation: int64,
  labels: stringMap,
  managedFields: { type: 'array', items: managedFieldsEntry, listType: 'atomic' },
  name: string,
  namespace: string,
  ownerReferences: mapList(ownerReference, ['uid']),
  resourceVersion: string,
  selfLink: string,
  uid: string,
});

const labelSelector = def(
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector',
  {
    matchExpressions: {
      type: 'array',
      listType: 'atomic',
      items: def('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement', { key: string, operator: string, values: atomicStrings }),
    },
    matchLabels: stringMap,
  },
  { mapType: 'atomic' },
);

const envVar = def('io.k8s.api.core.v1.EnvVar', {
  name: string,
  value: string,
  valueFrom: def('io.k8s.api.core.v1.EnvVarSource', {
    fieldRef: def('io.k8s.api.core.v1.ObjectFieldSelector', { apiVersion: string, fieldPath: string }, { mapType: 'atomic' }),
  }),
});

const containerPort = def('io.k8s.api.core.v1.ContainerPort', {
  containerPort: int32,
  hostIP: string,
  hostPort: int32,
  name: string,
  protocol: { type: 'string', default: 'TCP' },
});

const container = def('io.k8s.api.core.v1.Container', {
  args: atomicStrings,
  command: atomicStrings,
  env: mapList(envVar, ['name']),
  image: string,
  imagePullPolicy: string,
  name: string,
  ports: mapList(containerPort, ['containerPort', 'protocol'], 'containerPort'),
  resources: {
    ...def('io.k8s.api.core.v1.ResourceRequirements', {
      limits: { type: 'object', additionalProperties: quantity },
      requests: { type: 'object', additionalProperties: quantity },
    }),
    default: {},
  },
  terminationMessagePath: string,
  terminationMessagePolicy: string,
  volumeMounts: mapList(
    def('io.k8s.api.core.v1.VolumeMount', { mountPath: string, name: string, readOnly: boolean, subPath: string }),
    ['mountPath'],
  ),
}, { required: ['name'] });

const volume = def('io.k8s.api.core.v1.Volume', {
  configMap: def('io.k8s.api.core.v1.ConfigMapVolumeSource', { defaultMode: int32, name: string, optional: boolean }),
  emptyDir: def('io.k8s.api.core.v1.EmptyDirVolumeSource', { medium: string, sizeLimit: quantity }),
  name: string,
  secret: def('io.k8s.api.core.v1.SecretVolumeSource', { defaultMode: int32, optional: boolean, secretName: string }),
});

const podSpec = def('io.k8s.api.core.v1.PodSpec', {
  containers: mapList(container, ['name']),
  dnsPolicy: string,
  imagePullSecrets: mapList(def('io.k8s.api.core.v1.LocalObjectReference', { name: string }, { mapType: 'atomic' }), ['name']),
  initContainers: mapList(container, ['name']),
  nodeSelector: { type: 'object', additionalProperties: string, mapType: 'atomic' },
  restartPolicy: string,
  schedulerName: string,
  securityContext: def('io.k8s.api.core.v1.PodSecurityContext', { runAsNonRoot: boolean, runAsUser: int64 }),
  terminationGracePeriodSeconds: int64,
  tolerations: {
    type: 'array',
    listType: 'atomic',
    items: def('io.k8s.api.core.v1.Toleration', { effect: string, key: string, operator: string, tolerationSeconds: int64, value: string }),
  },
  volumes: mapList(volume, ['name'], 'name', 'merge,retainKeys'),
}, { required: ['containers'] });

const deploymentCondition = def('io.k8s.api.apps.v1.DeploymentCondition', {
  lastTransitionTime: time,
  lastUpdateTime: time,
  message: string,
  reason: string,
  status: string,
  type: string,
});

export const deployment = def(
  'io.k8s.api.apps.v1.Deployment',
  {
    apiVersion: string,
    kind: string,
    metadata: { ...objectMeta, default: {} },
    spec: def('io.k8s.api.apps.v1.DeploymentSpec', {
      minReadySeconds: int32,
      paused: boolean,
      progressDeadlineSeconds: int32,
      replicas: int32,
      revisionHistoryLimit: int32,
      selector: labelSelector,
      strategy: {
        ...def('io.k8s.api.apps.v1.DeploymentStrategy', {
          rollingUpdate: def('io.k8s.api.apps.v1.RollingUpdateDeployment', { maxSurge: intOrString, maxUnavailable: intOrString }),
          type: string,
        }),
        default: {},
        patchStrategy: 'retainKeys',
      },
      template: {
        ...def('io.k8s.api.core.v1.PodTemplateSpec', { metadata: { ...objectMeta, default: {} }, spec: { ...podSpec, default: {} } }),
        default: {},
      },
    }, { default: {}, required: ['selector', 'template'] }),
    status: def('io.k8s.api.apps.v1.DeploymentStatus', {
      availableReplicas: int32,
      collisionCount: int32,
      conditions: mapList(deploymentCondition, ['type']),
      observedGeneration: int64,
      readyReplicas: int32,
      replicas: int32,
      terminatingReplicas: int32,
      unavailableReplicas: int32,
      updatedReplicas: int32,
    }, { default: {} }),
  },
  { gvk: [{ group: 'apps', version: 'v1', kind: 'Deployment' }] },
);

export const configMap = def(
  'io.k8s.api.core.v1.ConfigMap',
  { apiVersion: string, binaryData: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } }, data: stringMap, immutable: boolean, kind: string, metadata: { ...objectMeta, default: {} } },
  { gvk: [{ group: '', version: 'v1', kind: 'ConfigMap' }] },
);
