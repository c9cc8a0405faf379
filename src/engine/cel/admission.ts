/**
 * The variables admission expressions see (k8s.io/apiserver/pkg/admission/plugin/cel/
 * compile.go): `object`, `oldObject`, `params` (dyn), `request` (kubernetes.AdmissionRequest),
 * `namespaceObject` (kubernetes.Namespace), `authorizer` and `authorizer.requestResource`, and a
 * policy's `variables`. One environment per combination, as kube-apiserver builds them.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { extendEnvironment } from './environment';

export interface AdmissionDeclarations {
  readonly hasParams: boolean;
  readonly hasAuthorizer: boolean;
}

export interface ObjectTypeDecl {
  name: string;
  fields: Record<string, string>;
  ctor?: new () => object;
}

const REQUEST_TYPES: ObjectTypeDecl[] = [
  { name: 'kubernetes.GroupVersionKind', fields: { group: 'string', version: 'string', kind: 'string' } },
  { name: 'kubernetes.GroupVersionResource', fields: { group: 'string', version: 'string', resource: 'string' } },
  { name: 'kubernetes.UserInfo', fields: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' } },
  {
    name: 'kubernetes.AdmissionRequest',
    fields: {
      kind: 'kubernetes.GroupVersionKind',
      resource: 'kubernetes.GroupVersionResource',
      subResource: 'string',
      requestKind: 'kubernetes.GroupVersionKind',
      requestResource: 'kubernetes.GroupVersionResource',
      requestSubResource: 'string',
      name: 'string',
      namespace: 'string',
      operation: 'string',
      userInfo: 'kubernetes.UserInfo',
      dryRun: 'bool',
      options: 'dyn',
    },
  },
  { name: 'kubernetes.NamespaceSpec', fields: { finalizers: 'list<string>' } },
  { name: 'kubernetes.NamespaceCondition', fields: { status: 'string', type: 'string', lastTransitionTime: 'google.protobuf.Timestamp', message: 'string', reason: 'string' } },
  { name: 'kubernetes.NamespaceStatus', fields: { conditions: 'list<kubernetes.NamespaceCondition>', phase: 'string' } },
  {
    name: 'kubernetes.NamespaceMetadata',
    fields: {
      name: 'string', generateName: 'string', namespace: 'string', labels: 'map<string, string>', annotations: 'map<string, string>', UID: 'string',
      creationTimestamp: 'google.protobuf.Timestamp', deletionGracePeriodSeconds: 'int', deletionTimestamp: 'google.protobuf.Timestamp', generation: 'int',
      resourceVersion: 'string', finalizers: 'list<string>',
    },
  },
  { name: 'kubernetes.Namespace', fields: { metadata: 'kubernetes.NamespaceMetadata', spec: 'kubernetes.NamespaceSpec', status: 'kubernetes.NamespaceStatus' } },
];

const cache = new Map<string, Environment>();

/** A policy's `variables`: their types and the class of the object that evaluates them lazily. */
export interface VariableDeclarations {
  readonly types: ReadonlyMap<string, string>;
  readonly ctor: new () => object;
}

/** For type checking: object and params typed by schemas, and the variables' types. */
export interface TypedDeclarations {
  readonly types: readonly ObjectTypeDecl[];
  readonly object: string;
  readonly params?: string;
  readonly variables: ReadonlyMap<string, string>;
}

/** The environment for one combination of optional variables, plus a policy's variables. */
export function admissionEnvironment(d: AdmissionDeclarations, policyVariables?: VariableDeclarations, typed?: TypedDeclarations): Environment {
  if (typed) return typedEnvironment(d, typed);
  const variableTypes = policyVariables?.types;
  const key = `${d.hasParams}/${d.hasAuthorizer}`;
  if (!variableTypes) {
    const hit = cache.get(key);
    if (hit) return hit;
  }
  const variables: Record<string, string> = { object: 'dyn', oldObject: 'dyn', namespaceObject: 'kubernetes.Namespace', request: 'kubernetes.AdmissionRequest' };
  if (d.hasParams) variables['params'] = 'dyn';
  if (d.hasAuthorizer) variables['authorizer'] = 'kubernetes.authorization.Authorizer';
  const types: ObjectTypeDecl[] = [...REQUEST_TYPES];
  if (variableTypes) {
    types.push({ name: 'kubernetes.Variables', fields: Object.fromEntries(variableTypes), ctor: policyVariables!.ctor });
    variables['variables'] = 'kubernetes.Variables';
  } else {
    variables['variables'] = 'map<string, dyn>';
  }
  const env = extendEnvironment({ variables, types });
  if (!variableTypes) cache.set(key, env);
  return env;
}

function typedEnvironment(d: AdmissionDeclarations, t: TypedDeclarations): Environment {
  const variables: Record<string, string> = { object: t.object, oldObject: t.object, namespaceObject: 'kubernetes.Namespace', request: 'kubernetes.AdmissionRequest' };
  if (d.hasParams) variables['params'] = t.params ?? 'dyn';
  if (d.hasAuthorizer) variables['authorizer'] = 'kubernetes.authorization.Authorizer';
  const types: ObjectTypeDecl[] = [...REQUEST_TYPES, ...t.types];
  types.push({ name: 'kubernetes.Variables', fields: Object.fromEntries(t.variables) });
  variables['variables'] = 'kubernetes.Variables';
  return extendEnvironment({ variables, types });
}
