/** Pod templates: the template embedded in workloads, and the PodTemplate kind. */
import { forbidden, Path, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { obj, objs, type Obj } from './json';
import { validateAnnotations, validateLabels, validateObjectMeta, validateObjectMetaUpdate } from './meta';
import { podValidationOptions, type PodValidationOptions } from './options';
import { validateAppArmorAnnotationsAndFieldsMatchOnCreate, validatePodSpecificAnnotations, validateSeccompAnnotationsAndFields } from './podannotations';
import { validatePodSpec } from './podspec';

/**
 * ValidatePodTemplateSpec. Labels and annotations are reported at `<path>.labels`, not
 * `<path>.metadata.labels`, as upstream does.
 */
export function validatePodTemplateSpec(template: Obj, fldPath: Path, opts: PodValidationOptions): ErrorList {
  const meta = obj(template['metadata']) ?? {};
  const spec = obj(template['spec']) ?? {};
  const errs = validateLabels(meta['labels'], fldPath.child('labels'));
  errs.push(...validateAnnotations(meta['annotations'], fldPath.child('annotations')));
  errs.push(...validatePodSpecificAnnotations(meta['annotations'], spec, fldPath.child('annotations'), opts));
  errs.push(...validatePodSpec(spec, undefined, fldPath.child('spec'), opts));
  errs.push(...validateSeccompAnnotationsAndFields(meta, spec, fldPath.child('spec')));
  errs.push(...validateAppArmorAnnotationsAndFieldsMatchOnCreate(meta, spec, fldPath.child('spec')));
  if (objs(spec['ephemeralContainers']).length > 0) {
    errs.push(forbidden(fldPath.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** Options for a template being created (old undefined) or updated from `old`. */
export function podTemplateValidationOptions(old: Obj | undefined): PodValidationOptions {
  return podValidationOptions(false, old ? obj(old['spec']) ?? {} : undefined, old ? obj(old['metadata']) ?? {} : undefined);
}

const templateOf = (o: KubeObject): Obj => obj(o['template']) ?? {};

registerValidator('', 'PodTemplate', {
  create: (pt) => [
    ...validateObjectMeta(pt.metadata, true, nameIsDNSSubdomain, Path.root('metadata')),
    ...validatePodTemplateSpec(templateOf(pt), Path.root('template'), podTemplateValidationOptions(undefined)),
  ],
  update: (pt, old) => [
    ...validateObjectMetaUpdate(pt.metadata, old.metadata, Path.root('metadata')),
    ...validatePodTemplateSpec(templateOf(pt), Path.root('template'), podTemplateValidationOptions(templateOf(old))),
  ],
});
