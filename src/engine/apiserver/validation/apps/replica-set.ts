/**
 * ReplicaSet rules (pkg/apis/apps/validation and the apps/v1 registry strategy). Upstream's empty
 * selector message names "deployment" here too.
 */
import { Path, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { int, num, obj, type Obj } from '../core/json';
import { validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { validateReplicaCounts } from './status';
import { validateReplicaSetSelectorAndTemplate, validateSelectorImmutable } from './template';

function validateSpec(spec: Obj, oldSpec: Obj | undefined, fldPath: Path): ErrorList {
  const errs = [
    ...validateNonnegativeField(int(spec['replicas']), fldPath.child('replicas')),
    ...validateNonnegativeField(int(spec['minReadySeconds']), fldPath.child('minReadySeconds')),
  ];
  errs.push(...validateReplicaSetSelectorAndTemplate(spec, oldSpec, fldPath));
  return errs;
}

function validateStatus(status: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const) {
    errs.push(...validateNonnegativeField(int(status[f]), fldPath.child(f)));
  }
  const terminating = num(status['terminatingReplicas']);
  if (terminating !== undefined) errs.push(...validateNonnegativeField(terminating, fldPath.child('terminatingReplicas')));
  return [...errs, ...validateReplicaCounts(status, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], 'readyReplicas', fldPath)];
}

const specOf = (rs: KubeObject): Obj => obj(rs['spec']) ?? {};

function validateReplicaSet(rs: KubeObject, oldSpec: Obj | undefined): ErrorList {
  return [...validateObjectMeta(rs.metadata, true, nameIsDNSSubdomain, Path.root('metadata')), ...validateSpec(specOf(rs), oldSpec, Path.root('spec'))];
}

registerValidator('apps', 'ReplicaSet', {
  create: (rs) => validateReplicaSet(rs, undefined),
  // The strategy runs the create rules and then the update rules, which validate the spec again.
  update: (rs, old) => [
    ...validateReplicaSet(rs, specOf(old)),
    ...validateObjectMetaUpdate(rs.metadata, old.metadata, Path.root('metadata')),
    ...validateSpec(specOf(rs), specOf(old), Path.root('spec')),
    ...validateSelectorImmutable(specOf(rs)['selector'], specOf(old)['selector'], Path.root('spec', 'selector')),
  ],
  updateStatus: (rs, old) => [
    ...validateObjectMetaUpdate(rs.metadata, old.metadata, Path.root('metadata')),
    ...validateStatus(obj(rs['status']) ?? {}, Path.root('status')),
  ],
});
