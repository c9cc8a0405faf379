/**
 * Job rules (pkg/apis/batch/validation and the registry strategy). Unless the selector is
 * manual, the strategy generates it and the pod labels from the Job's name and UID before
 * validating; that happens here on a copy so the checks see what upstream sees.
 */
import { invalid, Path, required, type ErrorList } from '../../../api/field';
import { isDNS1123Label, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { bool, clone, num, obj, semanticEqual, str, type Obj } from '../core/json';
import { podTemplateValidationOptions } from '../core/podtemplate';
import { labelSelectorHasInvalidLabelValue, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';
import { labelSelectorValue, stringMap } from '../apps/go-values';
import { selectorOf, templateLabels } from '../apps/template';
import { isIndexed, validateJobSpecFields } from './job-spec';
import { validateJobStatusUpdate } from './job-status';
import { own } from '../../../api/own';

const legacyControllerUidLabel = 'controller-uid';
const legacyJobNameLabel = 'job-name';
const controllerUidLabel = 'batch.kubernetes.io/controller-uid';
const jobNameLabel = 'batch.kubernetes.io/job-name';

interface Options {
  requirePrefixedLabels: boolean;
  allowInvalidLabelValueInSelector: boolean;
  allowMutableSchedulingDirectives: boolean;
  oldTemplate: Obj | undefined;
}

const specOf = (job: KubeObject): Obj => obj(job['spec']) ?? {};
const manualSelector = (job: KubeObject): boolean => bool(specOf(job)['manualSelector']);

/** generateSelector: the job-name and controller-uid labels, and a selector on the UID. */
function withGeneratedSelector(job: KubeObject): KubeObject {
  if (manualSelector(job)) return job;
  const out = clone(job as unknown as Obj) as KubeObject;
  const spec = (out['spec'] = obj(out['spec']) ?? {}) as Obj;
  const template = (spec['template'] = obj(spec['template']) ?? {}) as Obj;
  const meta = (template['metadata'] = obj(template['metadata']) ?? {}) as Obj;
  const labels = (meta['labels'] = obj(meta['labels']) ?? {}) as Obj;
  const name = str(job.metadata.name);
  const uid = str(job.metadata.uid);
  for (const [key, value] of [
    [legacyJobNameLabel, name],
    [jobNameLabel, name],
    [legacyControllerUidLabel, uid],
    [controllerUidLabel, uid],
  ] as const) {
    if (!(key in labels)) labels[key] = value;
  }
  const selector = (spec['selector'] = obj(spec['selector']) ?? {}) as Obj;
  const matchLabels = (selector['matchLabels'] = obj(selector['matchLabels']) ?? {}) as Obj;
  if (!(controllerUidLabel in matchLabels)) matchLabels[controllerUidLabel] = uid;
  return out;
}

/** ValidateHasLabel: the generated label is present with the expected value. */
function validateHasLabel(meta: Obj, fldPath: Path, key: string, expected: string): ErrorList {
  const labels = stringMap(meta['labels']) ?? {};
  const p = fldPath.child('labels').key(key);
  if (!Object.hasOwn(labels, key)) return [required(p, expected)];
  return own(labels, key) === expected ? [] : [invalid(p, labels, `must be '${expected}'`)];
}

function validateGeneratedSelector(job: KubeObject, requirePrefixedLabels: boolean): ErrorList {
  const spec = specOf(job);
  if (manualSelector(job) || !obj(spec['selector'])) return [];
  const errs: ErrorList = [];
  const uid = str(job.metadata.uid);
  const name = str(job.metadata.name);
  if (uid === '') errs.push(required(Path.root('metadata', 'uid'), ''));
  const templateMeta = obj(obj(spec['template'])?.['metadata']) ?? {};
  const metaPath = Path.root('spec', 'template', 'metadata');
  errs.push(...validateHasLabel(templateMeta, metaPath, legacyControllerUidLabel, uid));
  errs.push(...validateHasLabel(templateMeta, metaPath, legacyJobNameLabel, name));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errs.push(...validateHasLabel(templateMeta, metaPath, controllerUidLabel, uid));
    errs.push(...validateHasLabel(templateMeta, metaPath, jobNameLabel, name));
    expected[controllerUidLabel] = uid;
    expected[jobNameLabel] = name;
  }
  expected[legacyControllerUidLabel] = uid;
  expected[legacyJobNameLabel] = name;
  const selector = selectorOf(spec['selector']);
  if (selector.ok && !selector.value.matches(expected)) {
    errs.push(invalid(Path.root('spec', 'selector'), labelSelectorValue(spec['selector']), '`selector` not auto-generated'));
  }
  return errs;
}

function validateJobSpec(spec: Obj, opts: Options, fldPath: Path): ErrorList {
  const errs = validateJobSpecFields(spec, fldPath, podTemplateValidationOptions(opts.oldTemplate));
  const sel = obj(spec['selector']);
  if (!sel) errs.push(required(fldPath.child('selector'), ''));
  else errs.push(...validateLabelSelector(sel, { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector }, fldPath.child('selector')));
  const selector = selectorOf(sel);
  const template = obj(spec['template']) ?? {};
  if (selector.ok && !selector.value.matches(templateLabels(template))) {
    errs.push(invalid(fldPath.child('template', 'metadata', 'labels'), stringMap(obj(template['metadata'])?.['labels']), '`selector` does not match template `labels`'));
  }
  return errs;
}

function validateJob(job: KubeObject, opts: Options): ErrorList {
  const spec = specOf(job);
  const errs = [
    ...validateObjectMeta(job.metadata, true, nameIsDNSSubdomain, Path.root('metadata')),
    ...validateGeneratedSelector(job, opts.requirePrefixedLabels),
    ...validateJobSpec(spec, opts, Path.root('spec')),
  ];
  const completions = num(spec['completions']);
  if (isIndexed(spec) && completions !== undefined && completions > 0) {
    // Indexed pods get "-<index>" appended to their hostname, which must stay a DNS label.
    const name = str(job.metadata.name);
    const maximumPodHostname = `${name}-${completions - 1}`;
    if (isDNS1123Label(maximumPodHostname).length > 0) {
      errs.push(invalid(Path.root('metadata', 'name'), name, `will not able to create pod with invalid DNS label: ${maximumPodHostname}`));
    }
  }
  return errs;
}

function createOptions(): Options {
  return { requirePrefixedLabels: true, allowInvalidLabelValueInSelector: false, allowMutableSchedulingDirectives: false, oldTemplate: undefined };
}

function updateOptions(old: KubeObject): Options {
  const spec = specOf(old);
  const labels = stringMap(obj(obj(spec['template'])?.['metadata'])?.['labels']) ?? {};
  return {
    requirePrefixedLabels: jobNameLabel in labels && controllerUidLabel in labels,
    allowInvalidLabelValueInSelector: labelSelectorHasInvalidLabelValue(spec['selector']),
    // Scheduling directives may change only for a suspended job that never started.
    allowMutableSchedulingDirectives: bool(spec['suspend']) && !obj(old['status'])?.['startTime'],
    oldTemplate: obj(spec['template']),
  };
}

/** The template with the fields a suspended, never-started Job may change taken from `now`. */
function comparableOldTemplate(now: Obj, old: Obj): Obj {
  const out = clone(old);
  const spec = (out['spec'] = obj(out['spec']) ?? {}) as Obj;
  const meta = (out['metadata'] = obj(out['metadata']) ?? {}) as Obj;
  const nowSpec = obj(now['spec']) ?? {};
  const nowMeta = obj(now['metadata']) ?? {};
  const nowAffinity = obj(nowSpec['affinity']);
  const oldAffinity = obj(spec['affinity']);
  if (!nowAffinity && oldAffinity) {
    delete oldAffinity['nodeAffinity'];
    if (Object.keys(oldAffinity).length === 0) delete spec['affinity'];
  } else if (nowAffinity && !oldAffinity) {
    spec['affinity'] = nowAffinity['nodeAffinity'] === undefined ? {} : { nodeAffinity: nowAffinity['nodeAffinity'] };
  } else if (nowAffinity && oldAffinity) {
    oldAffinity['nodeAffinity'] = nowAffinity['nodeAffinity'];
  }
  for (const f of ['nodeSelector', 'tolerations', 'schedulingGates'] as const) spec[f] = nowSpec[f];
  for (const f of ['annotations', 'labels'] as const) meta[f] = nowMeta[f];
  return out;
}

function immutable(now: unknown, before: unknown, fldPath: Path, shown: unknown = now ?? null): ErrorList {
  return semanticEqual(now, before) ? [] : [invalid(fldPath, shown, 'field is immutable')];
}

function validateCompletions(spec: Obj, oldSpec: Obj, fldPath: Path): ErrorList {
  const completions = num(spec['completions']);
  // ElasticIndexedJob: an Indexed Job scales by changing completions together with parallelism.
  if (!isIndexed(spec)) return immutable(spec['completions'], oldSpec['completions'], fldPath);
  if (semanticEqual(spec['completions'], oldSpec['completions']) || completions === undefined) return [];
  return completions !== num(spec['parallelism']) ? [invalid(fldPath, completions, 'can only be modified in tandem with spec.parallelism')] : [];
}

function validateJobSpecUpdate(spec: Obj, oldSpec: Obj, opts: Options, fldPath: Path): ErrorList {
  const template = obj(spec['template']) ?? {};
  const oldTemplate = obj(oldSpec['template']) ?? {};
  const comparable = opts.allowMutableSchedulingDirectives ? comparableOldTemplate(template, oldTemplate) : oldTemplate;
  return [
    ...validateJobSpec(spec, opts, fldPath),
    ...validateCompletions(spec, oldSpec, fldPath.child('completions')),
    ...immutable(spec['selector'], oldSpec['selector'], fldPath.child('selector'), labelSelectorValue(spec['selector'])),
    ...immutable(template, comparable, fldPath.child('template')),
    ...immutable(spec['completionMode'], oldSpec['completionMode'], fldPath.child('completionMode')),
    ...immutable(spec['podFailurePolicy'], oldSpec['podFailurePolicy'], fldPath.child('podFailurePolicy')),
    ...immutable(spec['backoffLimitPerIndex'], oldSpec['backoffLimitPerIndex'], fldPath.child('backoffLimitPerIndex')),
    ...immutable(spec['managedBy'], oldSpec['managedBy'], fldPath.child('managedBy')),
    ...immutable(spec['successPolicy'], oldSpec['successPolicy'], fldPath.child('successPolicy')),
  ];
}

registerValidator('batch', 'Job', {
  create: (job) => validateJob(withGeneratedSelector(job), createOptions()),
  // The strategy runs the create rules and then the update rules, which validate the spec again.
  update: (job, old) => {
    const opts = updateOptions(old);
    return [
      ...validateJob(job, opts),
      ...validateObjectMetaUpdate(job.metadata, old.metadata, Path.root('metadata')),
      ...validateJobSpecUpdate(specOf(job), specOf(old), opts, Path.root('spec')),
    ];
  },
  updateStatus: (job, old) => [...validateObjectMetaUpdate(job.metadata, old.metadata, Path.root('metadata')), ...validateJobStatusUpdate(job, old)],
});
