/** ReplicationController: selector, replicas and a template that runs forever. */
import { forbidden, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { int, isSet, obj, str, strMap, type Obj } from './json';
import { validateObjectMeta, validateObjectMetaUpdate } from './meta';
import { validateNonnegativeField } from './numbers';
import { podTemplateValidationOptions, validatePodTemplateSpec } from './podtemplate';

const specOf = (rc: KubeObject): Obj => obj(rc['spec']) ?? {};

function validateReplicationControllerSpec(spec: Obj, oldSpec: Obj | undefined, fldPath: Path): ErrorList {
  const errs = validateNonnegativeField(int(spec['minReadySeconds']), fldPath.child('minReadySeconds'));
  const selector = strMap(spec['selector']);
  if (selector.length === 0) errs.push(required(fldPath.child('selector'), ''));
  errs.push(...validateNonnegativeField(int(spec['replicas']), fldPath.child('replicas')));
  const templatePath = fldPath.child('template');
  const template = obj(spec['template']);
  if (!template) {
    errs.push(required(templatePath, ''));
    return errs;
  }
  const labels = obj(obj(template['metadata'])?.['labels']);
  const labelMap = new Map(strMap(labels));
  if (selector.length > 0 && !selector.every(([k, v]) => labelMap.get(k) === v)) {
    errs.push(invalid(templatePath.child('metadata', 'labels'), labels ?? null, '`selector` does not match template `labels`'));
  }
  const opts = podTemplateValidationOptions(oldSpec ? obj(oldSpec['template']) : undefined);
  errs.push(...validatePodTemplateSpec(template, templatePath, opts));
  const podSpec = obj(template['spec']) ?? {};
  if (podSpec['restartPolicy'] !== 'Always') {
    errs.push(notSupported(templatePath.child('spec', 'restartPolicy'), str(podSpec['restartPolicy']), ['Always']));
  }
  if (isSet(podSpec['activeDeadlineSeconds'])) {
    errs.push(forbidden(templatePath.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

function validateReplicationControllerStatus(status: Obj, fldPath: Path): ErrorList {
  const replicas = int(status['replicas']);
  const fullyLabeled = int(status['fullyLabeledReplicas']);
  const ready = int(status['readyReplicas']);
  const available = int(status['availableReplicas']);
  const errs: ErrorList = [];
  errs.push(...validateNonnegativeField(replicas, fldPath.child('replicas')));
  errs.push(...validateNonnegativeField(fullyLabeled, fldPath.child('fullyLabeledReplicas')));
  errs.push(...validateNonnegativeField(ready, fldPath.child('readyReplicas')));
  errs.push(...validateNonnegativeField(available, fldPath.child('availableReplicas')));
  errs.push(...validateNonnegativeField(int(status['observedGeneration']), fldPath.child('observedGeneration')));
  const msg = 'cannot be greater than status.replicas';
  if (fullyLabeled > replicas) errs.push(invalid(fldPath.child('fullyLabeledReplicas'), fullyLabeled, msg));
  if (ready > replicas) errs.push(invalid(fldPath.child('readyReplicas'), ready, msg));
  if (available > replicas) errs.push(invalid(fldPath.child('availableReplicas'), available, msg));
  if (available > ready) errs.push(invalid(fldPath.child('availableReplicas'), available, 'cannot be greater than readyReplicas'));
  return errs;
}

registerValidator('', 'ReplicationController', {
  create: (rc) => [
    ...validateObjectMeta(rc.metadata, true, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateReplicationControllerSpec(specOf(rc), undefined, Path.root('spec')),
  ],
  update: (rc, old) => [
    ...validateObjectMetaUpdate(rc.metadata, old.metadata, Path.root('metadata')),
    ...validateReplicationControllerSpec(specOf(rc), specOf(old), Path.root('spec')),
  ],
  updateStatus: (rc, old) => [
    ...validateObjectMetaUpdate(rc.metadata, old.metadata, Path.root('metadata')),
    ...validateReplicationControllerStatus(obj(rc['status']) ?? {}, Path.root('status')),
  ],
});
