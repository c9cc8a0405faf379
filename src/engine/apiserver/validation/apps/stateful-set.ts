/**
 * StatefulSet rules (pkg/apis/apps/validation). The template's pod spec is deliberately not
 * validated here upstream (its volumes come partly from volumeClaimTemplates); only its labels
 * and annotations are. After creation only a few spec fields may change.
 */
import { forbidden, invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { nameIsDNSLabel } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { int, isSet, num, obj, semanticEqual, str, type Obj } from '../core/json';
import { validatePodSpecificAnnotations } from '../core/podannotations';
import { podTemplateValidationOptions } from '../core/podtemplate';
import { validateAnnotations, validateLabels, validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { goStruct, labelSelectorValue } from './go-values';
import { intOrPercentValue, intOrString, isNotMoreThan100Percent, validatePositiveIntOrPercent } from './int-or-percent';
import { validateReplicaCounts } from './status';
import { isDecremented, selectorOf, validateLongRunningPodSpec, validateRequiredSelector, validateSelectorMatchesTemplate } from './template';
import { own } from '../../../api/own';

const retentionPolicies = ['Retain', 'Delete'];

/** The internal RollingUpdateStatefulSetStrategy, as the strategy errors print it. */
function rollingUpdateValue(ru: Obj | undefined): Map<string, unknown> | null {
  return ru ? goStruct([['Partition', int(ru['partition'])], ['MaxUnavailable', ru['maxUnavailable'] ?? null]]) : null;
}

function validateRollingUpdate(ru: Obj, fldPath: Path): ErrorList {
  const errs = validateNonnegativeField(int(ru['partition']), fldPath.child('partition'));
  const raw = ru['maxUnavailable'];
  if (isSet(raw)) {
    const p = fldPath.child('maxUnavailable');
    const v = intOrString(raw);
    errs.push(...validatePositiveIntOrPercent(v, p));
    if (intOrPercentValue(v) === 0) errs.push(invalid(p, v, 'cannot be 0'));
    errs.push(...isNotMoreThan100Percent(v, p));
  }
  return errs;
}

function validateUpdateStrategy(strategy: Obj, fldPath: Path): ErrorList {
  const ru = obj(strategy['rollingUpdate']);
  switch (str(strategy['type'])) {
    case '':
      return [required(fldPath, '')];
    case 'OnDelete':
      return ru ? [invalid(fldPath.child('rollingUpdate'), rollingUpdateValue(ru), "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate':
      return ru ? validateRollingUpdate(ru, fldPath.child('rollingUpdate')) : [];
    default:
      return [invalid(fldPath, goStruct([['Type', str(strategy['type'])], ['RollingUpdate', rollingUpdateValue(ru)]]), "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

function validateRetentionPolicy(policy: unknown, fldPath: Path): ErrorList {
  const p = obj(policy);
  if (!p) return [];
  return (['whenDeleted', 'whenScaled'] as const).flatMap((f) =>
    retentionPolicies.includes(str(p[f])) ? [] : [notSupported(fldPath.child(f), str(p[f]), retentionPolicies)],
  );
}

/** ValidatePodTemplateSpecForStatefulSet: selector match, labels and annotations only. */
function validateTemplate(template: Obj, selector: Parameters<typeof validateSelectorMatchesTemplate>[0], oldSpec: Obj | undefined, fldPath: Path): ErrorList {
  const meta = obj(template['metadata']) ?? {};
  return [
    ...validateSelectorMatchesTemplate(selector, template, fldPath),
    ...validateLabels(meta['labels'], fldPath.child('labels')),
    ...validateAnnotations(meta['annotations'], fldPath.child('annotations')),
    ...validatePodSpecificAnnotations(meta['annotations'], obj(template['spec']) ?? {}, fldPath.child('annotations'), podTemplateValidationOptions(obj(oldSpec?.['template']))),
  ];
}

function validateSpec(spec: Obj, oldSpec: Obj | undefined, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const policy = str(spec['podManagementPolicy']);
  if (policy === '') errs.push(required(fldPath.child('podManagementPolicy'), ''));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(invalid(fldPath.child('podManagementPolicy'), policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateUpdateStrategy(obj(spec['updateStrategy']) ?? {}, fldPath.child('updateStrategy')));
  errs.push(...validateRetentionPolicy(spec['persistentVolumeClaimRetentionPolicy'], fldPath.child('persistentVolumeClaimRetentionPolicy')));
  errs.push(...validateNonnegativeField(int(spec['replicas']), fldPath.child('replicas')));
  errs.push(...validateNonnegativeField(int(spec['minReadySeconds']), fldPath.child('minReadySeconds')));
  const ordinals = obj(spec['ordinals']);
  if (ordinals) errs.push(...validateNonnegativeField(int(ordinals['start']), fldPath.child('ordinals.start')));
  const sel = obj(spec['selector']);
  errs.push(...validateRequiredSelector(sel, 'statefulset', fldPath.child('selector')));
  const selector = selectorOf(sel);
  const template = obj(spec['template']) ?? {};
  if (!selector.ok) errs.push(invalid(fldPath.child('selector'), labelSelectorValue(sel), ''));
  else errs.push(...validateTemplate(template, selector.value, oldSpec, fldPath.child('template')));
  return [...errs, ...validateLongRunningPodSpec(template, 'StatefulSet', fldPath.child('template'))];
}

/** The spec with the fields an update may change taken from the old object. */
function frozenSpec(spec: Obj, old: Obj): Obj {
  const mutable = ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'persistentVolumeClaimRetentionPolicy', 'revisionHistoryLimit'] as const;
  const out: Obj = { ...spec };
  for (const f of mutable) out[f] = old[f];
  return out;
}

const specOf = (s: KubeObject): Obj => obj(s['spec']) ?? {};

function validateStatefulSet(s: KubeObject): ErrorList {
  return [...validateObjectMeta(s.metadata, true, nameIsDNSLabel, Path.root('metadata')), ...validateSpec(specOf(s), undefined, Path.root('spec'))];
}

function validateStatus(status: Obj, fldPath: Path): ErrorList {
  const errs = ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'].flatMap((f) =>
    validateNonnegativeField(int(own(status, f)), fldPath.child(f)),
  );
  for (const f of ['observedGeneration', 'collisionCount'] as const) {
    const v = num(status[f]);
    if (v !== undefined) errs.push(...validateNonnegativeField(v, fldPath.child(f)));
  }
  return [...errs, ...validateReplicaCounts(status, ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'], 'status.readyReplicas', fldPath)];
}

registerValidator('apps', 'StatefulSet', {
  create: validateStatefulSet,
  // The strategy runs the create rules and then the update rules, which validate the spec again.
  update: (s, old) => {
    const errs = [
      ...validateStatefulSet(s),
      ...validateObjectMetaUpdate(s.metadata, old.metadata, Path.root('metadata')),
      ...validateSpec(specOf(s), specOf(old), Path.root('spec')),
    ];
    if (!semanticEqual(frozenSpec(specOf(s), specOf(old)), specOf(old))) {
      errs.push(
        forbidden(
          Path.root('spec'),
          "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ),
      );
    }
    return errs;
  },
  updateStatus: (s, old) => {
    const status = obj(s['status']) ?? {};
    const errs = [...validateStatus(status, Path.root('status')), ...validateObjectMetaUpdate(s.metadata, old.metadata, Path.root('metadata'))];
    if (isDecremented(status['collisionCount'], obj(old['status'])?.['collisionCount'])) {
      errs.push(invalid(Path.root('status', 'collisionCount'), num(status['collisionCount']) ?? 0, 'cannot be decremented'));
    }
    return errs;
  },
});
