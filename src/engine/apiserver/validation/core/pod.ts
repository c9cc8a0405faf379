/**
 * Pod: create, update ("pod updates may not change fields other than ...") and status updates.
 */
import { duplicate, forbidden, Path, invalid, required, type ErrorList } from '../../../api/field';
import { isIPv4, isValidIPForLegacyField, parseIPSloppy } from '../../../api/ip';
import { goQuote } from '../../../api/gofmt';
import { inclusiveRangeError, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { validateContainerOnlyForPod } from './container';
import { specDiff } from './diff';
import { validateName, validateQualifiedName } from './formats';
import { ipStruct } from './gostruct';
import { clone, isSet, num, obj, objs, semanticEqual, str, strMap, type Obj } from './json';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from './meta';
import { podValidationOptions, type PodValidationOptions } from './options';
import {
  mirrorPodAnnotation,
  validateAppArmorAnnotationsAndFieldsMatchOnCreate,
  validatePodSpecificAnnotations,
  validatePodSpecificAnnotationUpdates,
  validateSeccompAnnotationsAndFields,
} from './podannotations';
import { validatePodSpec } from './podspec';
import { parseQuantity } from './quantity';
import { validateTolerations } from './tolerations';

const maxInt32 = 2147483647;
const specOf = (pod: KubeObject): Obj => obj(pod['spec']) ?? {};
const statusOf = (pod: KubeObject): Obj => obj(pod['status']) ?? {};
const metaOf = (pod: KubeObject): Obj => obj(pod.metadata) ?? {};

function validatePodMetadataAndSpec(pod: KubeObject, opts: PodValidationOptions): ErrorList {
  const metaPath = Path.root('metadata');
  const specPath = Path.root('spec');
  const spec = specOf(pod);
  const errs = validateObjectMeta(pod.metadata, true, nameIsDNSSubdomain, metaPath);
  errs.push(...validatePodSpecificAnnotations(pod.metadata.annotations, spec, metaPath.child('annotations'), opts));
  errs.push(...validatePodSpec(spec, metaOf(pod), specPath, opts));
  // Only Pods (not templates) reject tokens without a service account and padded images.
  if (str(spec['serviceAccountName']) === '') {
    objs(spec['volumes']).forEach((v, vi) => {
      objs(obj(v['projected'])?.['sources']).forEach((s, si) => {
        if (isSet(s['serviceAccountToken'])) {
          const path = specPath.child('volumes').index(vi).child('projected', 'sources').index(si).child('serviceAccountToken');
          errs.push(forbidden(path, 'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  objs(spec['containers']).forEach((c, i) => errs.push(...validateContainerOnlyForPod(c, specPath.child('containers').index(i))));
  objs(spec['initContainers']).forEach((c, i) => errs.push(...validateContainerOnlyForPod(c, specPath.child('initContainers').index(i))));
  return errs;
}

export function validatePodCreate(pod: KubeObject, opts: PodValidationOptions): ErrorList {
  const errs = validatePodMetadataAndSpec(pod, opts);
  const specPath = Path.root('spec');
  const spec = specOf(pod);
  // Ephemeral containers are only added through the ephemeralcontainers subresource.
  if (objs(spec['ephemeralContainers']).length > 0) errs.push(forbidden(specPath.child('ephemeralContainers'), 'cannot be set on create'));
  if (str(spec['nodeName']) !== '' && objs(spec['schedulingGates']).length !== 0) {
    errs.push(forbidden(specPath.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  errs.push(...validateSeccompAnnotationsAndFields(metaOf(pod), spec, specPath));
  errs.push(...validateAppArmorAnnotationsAndFieldsMatchOnCreate(metaOf(pod), spec, specPath));
  return errs;
}

const updatablePodSpecFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

function validateContainerUpdates(newList: readonly Obj[], oldList: readonly Obj[], fldPath: Path): { errs: ErrorList; stop: boolean } {
  if (newList.length !== oldList.length) return { errs: [forbidden(fldPath, 'pod updates may not add or remove containers')], stop: true };
  const errs: ErrorList = [];
  newList.forEach((c, i) => {
    const image = str(c['image']);
    if (image.length === 0) errs.push(required(fldPath.index(i).child('image'), ''));
    if (image.trim().length !== image.length) errs.push(invalid(fldPath.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** A copy with every quantity in canonical form, so that specs compare by value as apiequality.Semantic does. */
function canonicalQuantities(spec: Obj): Obj {
  const out = clone(spec);
  const canon = (list: unknown): void => {
    const o = obj(list);
    if (!o) return;
    for (const k of Object.keys(o)) {
      const q = parseQuantity(o[k]);
      if (q) o[k] = q.toString();
    }
  };
  const canonResources = (r: unknown): void => {
    canon(obj(r)?.['limits']);
    canon(obj(r)?.['requests']);
  };
  for (const kind of ['containers', 'initContainers', 'ephemeralContainers'] as const) for (const c of objs(out[kind])) canonResources(c['resources']);
  canonResources(out['resources']);
  canon(out['overhead']);
  for (const v of objs(out['volumes'])) {
    const emptyDir = obj(v['emptyDir']);
    const q = parseQuantity(emptyDir?.['sizeLimit']);
    if (emptyDir && q) emptyDir['sizeLimit'] = q.toString();
  }
  return out;
}

/** Existing tolerations may only gain tolerationSeconds changes; new ones may be appended. */
function validateOnlyAddedTolerations(newTolerations: unknown, oldTolerations: unknown, fldPath: Path): ErrorList {
  const news = objs(newTolerations);
  for (const old of objs(oldTolerations)) {
    const found = news.some((n) => semanticEqual({ ...old, tolerationSeconds: n['tolerationSeconds'] }, n));
    if (!found) return [forbidden(fldPath, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(newTolerations, fldPath);
}

function validateOnlyDeletedSchedulingGates(newGates: unknown, oldGates: unknown, fldPath: Path): ErrorList {
  const added = new Map<string, number>();
  objs(newGates).forEach((g, i) => added.set(str(g['name']), i));
  for (const g of objs(oldGates)) added.delete(str(g['name']));
  return [...added].map(([gate, i]) => forbidden(fldPath.index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${gate}'`));
}

export function validatePodUpdate(pod: KubeObject, old: KubeObject, opts: PodValidationOptions): ErrorList {
  const metaPath = Path.root('metadata');
  const specPath = Path.root('spec');
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata, metaPath);
  errs.push(...validatePodMetadataAndSpec(pod, opts));
  errs.push(...validatePodSpecificAnnotationUpdates(pod.metadata.annotations, old.metadata.annotations, metaPath.child('annotations')));
  errs.push(...validatePodSpecificAnnotations(pod.metadata.annotations, specOf(pod), metaPath.child('annotations'), opts));
  const spec = canonicalQuantities(specOf(pod));
  const oldSpec = canonicalQuantities(specOf(old));

  for (const kind of ['containers', 'initContainers'] as const) {
    const { errs: cErrs, stop } = validateContainerUpdates(objs(spec[kind]), objs(oldSpec[kind]), specPath.child(kind));
    errs.push(...cErrs);
    if (stop) return errs;
  }

  // activeDeadlineSeconds may be set, or lowered, but not raised or removed.
  const newADS = num(spec['activeDeadlineSeconds']);
  const oldADS = num(oldSpec['activeDeadlineSeconds']);
  const adsPath = specPath.child('activeDeadlineSeconds');
  if (newADS !== undefined) {
    if (newADS < 0 || newADS > maxInt32) return [...errs, invalid(adsPath, newADS, inclusiveRangeError(0, maxInt32))];
    if (oldADS !== undefined && oldADS < newADS) return [...errs, invalid(adsPath, newADS, 'must be less than or equal to previous value')];
  } else if (oldADS !== undefined) {
    errs.push(invalid(adsPath, null, 'must not update from a positive integer to nil value'));
  }

  errs.push(...validateOnlyAddedTolerations(spec['tolerations'], oldSpec['tolerations'], specPath.child('tolerations')));
  errs.push(...validateOnlyDeletedSchedulingGates(spec['schedulingGates'], oldSpec['schedulingGates'], specPath.child('schedulingGates')));

  if (semanticEqual(spec, oldSpec)) return errs;

  const munged = clone(spec);
  for (const kind of ['containers', 'initContainers'] as const) {
    const oldList = objs(oldSpec[kind]);
    objs(munged[kind]).forEach((c, i) => (c['image'] = oldList[i]?.['image']));
  }
  munged['activeDeadlineSeconds'] = oldSpec['activeDeadlineSeconds'];
  munged['schedulingGates'] = oldSpec['schedulingGates'];
  munged['tolerations'] = oldSpec['tolerations'];
  const oldTGPS = num(oldSpec['terminationGracePeriodSeconds']);
  if (oldTGPS !== undefined && oldTGPS < 0 && munged['terminationGracePeriodSeconds'] === 1) munged['terminationGracePeriodSeconds'] = oldTGPS;

  if (objs(oldSpec['schedulingGates']).length > 0) errs.push(...mungeGatedPodScheduling(munged, oldSpec, specPath));

  if (!semanticEqual(munged, oldSpec)) {
    errs.push(forbidden(specPath, `pod updates may not change fields other than ${updatablePodSpecFields.join(',')}\n${specDiff(oldSpec, munged)}`));
  }
  return errs;
}

/**
 * A pod still gated from scheduling may gain node selector entries and node affinity
 * requirements (never lose or change them); accepted changes are folded into `munged`.
 */
function mungeGatedPodScheduling(munged: Obj, oldSpec: Obj, specPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (!semanticEqual(munged['nodeSelector'], oldSpec['nodeSelector'])) {
    const n = new Map(strMap(munged['nodeSelector']));
    if (strMap(oldSpec['nodeSelector']).some(([k, v]) => n.get(k) !== v)) {
      errs.push(invalid(specPath.child('nodeSelector'), obj(munged['nodeSelector']) ?? null, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)'));
    }
    munged['nodeSelector'] = oldSpec['nodeSelector'];
  }
  const oldAffinity = obj(oldSpec['affinity']);
  const oldNA = obj(oldAffinity?.['nodeAffinity']);
  const newAffinity = obj(munged['affinity']);
  const newNA = obj(newAffinity?.['nodeAffinity']);
  if (!semanticEqual(oldNA, newNA)) {
    errs.push(...validateNodeAffinityMutation(specPath.child('affinity', 'nodeAffinity'), newNA, oldNA));
    if (!newAffinity) {
      if (oldNA) munged['affinity'] = { nodeAffinity: oldNA };
    } else if (!oldAffinity && !isSet(newAffinity['podAntiAffinity']) && !isSet(newAffinity['podAffinity'])) {
      delete munged['affinity'];
    } else {
      newAffinity['nodeAffinity'] = oldNA;
    }
  }
  return errs;
}

function validateNodeAffinityMutation(path: Path, newNA: Obj | undefined, oldNA: Obj | undefined): ErrorList {
  const oldRequired = obj(oldNA?.['requiredDuringSchedulingIgnoredDuringExecution']);
  if (!oldRequired) return [];
  const oldTerms = objs(oldRequired['nodeSelectorTerms']);
  const newRequired = obj(newNA?.['requiredDuringSchedulingIgnoredDuringExecution']);
  const newTerms = objs(newRequired?.['nodeSelectorTerms']);
  const termsPath = path.child('requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
  if (oldTerms.length > 0 && oldTerms.length !== newTerms.length) {
    return [invalid(termsPath, newRequired?.['nodeSelectorTerms'] ?? null, 'no additions/deletions to non-empty NodeSelectorTerms list are allowed')];
  }
  const errs: ErrorList = [];
  oldTerms.forEach((oldTerm, i) => {
    const newTerm = newTerms[i] ?? {};
    if (!termHasOnlyAdditions(newTerm, oldTerm)) errs.push(invalid(termsPath.index(i), newTerm, 'only additions are allowed (no mutations or deletions)'));
  });
  return errs;
}

function termHasOnlyAdditions(newTerm: Obj, oldTerm: Obj): boolean {
  const oldExprs = objs(oldTerm['matchExpressions']);
  const oldFields = objs(oldTerm['matchFields']);
  const newExprs = objs(newTerm['matchExpressions']);
  const newFields = objs(newTerm['matchFields']);
  if (oldExprs.length === 0 && oldFields.length === 0 && (newExprs.length > 0 || newFields.length > 0)) return false;
  if (oldExprs.length > 0 && (newExprs.length < oldExprs.length || !semanticEqual(newExprs.slice(0, oldExprs.length), oldExprs))) return false;
  if (oldFields.length > 0 && (newFields.length < oldFields.length || !semanticEqual(newFields.slice(0, oldFields.length), oldFields))) return false;
  return true;
}

const systemConditions = new Set(['PodScheduled', 'Ready', 'Initialized']);

function validateContainerStateTransition(newStatuses: unknown, oldStatuses: unknown, fldPath: Path, restartPolicy: string, restartable: (name: string) => boolean): ErrorList {
  if (restartPolicy === 'Always') return [];
  const errs: ErrorList = [];
  const news = objs(newStatuses);
  objs(oldStatuses).forEach((old, i) => {
    const terminated = obj(obj(old['state'])?.['terminated']);
    if (!terminated) return;
    if ((num(terminated['exitCode']) ?? 0) !== 0 && restartPolicy === 'OnFailure') return;
    if (restartable(str(old['name']))) return;
    for (const n of news) {
      if (str(n['name']) === str(old['name']) && !isSet(obj(n['state'])?.['terminated'])) {
        errs.push(forbidden(fldPath.index(i).child('state'), 'may not be transitioned to non-terminated state'));
      }
    }
  });
  return errs;
}

/** Two IPs at most, one per family, no repeats (status.podIPs and status.hostIPs). */
function validateIPList(list: readonly Obj[], fldPath: Path, duplicateFirst: boolean): ErrorList {
  const errs: ErrorList = [];
  const ips = list.map((e) => str(e['ip']));
  const dupErrs: ErrorList = [];
  const seen = new Set<string>();
  ips.forEach((ip, i) => {
    if (seen.has(ip)) dupErrs.push(duplicate(fldPath.index(i), ipStruct(list[i]!)));
    seen.add(ip);
  });
  const parsed = ips.map(parseIPSloppy);
  const dualStack = parsed.every((p) => p !== undefined) && parsed.some((p) => isIPv4(p!)) && parsed.some((p) => !isIPv4(p!));
  const familyErr = !dualStack || ips.length > 2 ? [invalid(fldPath, list.map(ipStruct), 'may specify no more than one IP for each IP family')] : [];
  if (duplicateFirst) errs.push(...dupErrs, ...familyErr);
  else errs.push(...familyErr, ...dupErrs);
  return errs;
}

export function validatePodStatusUpdate(pod: KubeObject, old: KubeObject, opts: PodValidationOptions): ErrorList {
  const metaPath = Path.root('metadata');
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata, metaPath);
  errs.push(...validatePodSpecificAnnotationUpdates(pod.metadata.annotations, old.metadata.annotations, metaPath.child('annotations')));
  errs.push(...validatePodSpecificAnnotations(pod.metadata.annotations, specOf(pod), metaPath.child('annotations'), opts));
  const status = statusOf(pod);
  const oldStatus = statusOf(old);
  objs(status['conditions']).forEach((c, i) => {
    const type = str(c['type']);
    if (!systemConditions.has(type)) errs.push(...validateQualifiedName(type, metaPath.child('conditions').index(i).child('Type')));
  });
  const statusPath = Path.root('status');
  const spec = specOf(pod);
  const oldSpec = specOf(old);
  if (str(spec['nodeName']) !== str(oldSpec['nodeName'])) errs.push(forbidden(statusPath.child('nodeName'), 'may not be changed directly'));
  const nominated = str(status['nominatedNodeName']);
  if (nominated !== str(oldStatus['nominatedNodeName']) && nominated.length > 0) {
    errs.push(...validateName(nameIsDNSSubdomain, nominated, statusPath.child('nominatedNodeName')));
  }
  errs.push(...validateImmutableField(str(status['qosClass']), str(oldStatus['qosClass']), statusPath.child('qosClass')));
  const oldRestartPolicy = str(oldSpec['restartPolicy']);
  errs.push(...validateContainerStateTransition(status['containerStatuses'], oldStatus['containerStatuses'], statusPath.child('containerStatuses'), oldRestartPolicy, () => false));
  const sidecars = new Set(objs(oldSpec['initContainers']).filter((c) => c['restartPolicy'] === 'Always').map((c) => str(c['name'])));
  errs.push(...validateContainerStateTransition(status['initContainerStatuses'], oldStatus['initContainerStatuses'], statusPath.child('initContainerStatuses'), oldRestartPolicy, (n) => sidecars.has(n)));
  errs.push(...validateContainerStateTransition(status['ephemeralContainerStatuses'], oldStatus['ephemeralContainerStatuses'], statusPath.child('ephemeralContainerStatuses'), 'Never', () => false));

  const podIPsPath = statusPath.child('podIPs');
  const podIPs = objs(status['podIPs']);
  podIPs.forEach((ip, i) => errs.push(...isValidIPForLegacyField(podIPsPath.index(i), str(ip['ip']), false)));
  if (podIPs.length > 1) errs.push(...validateIPList(podIPs, podIPsPath, false));

  const hostIPs = objs(status['hostIPs']);
  if (hostIPs.length > 0) {
    const hostIPsPath = statusPath.child('hostIPs');
    if (str(status['hostIP']) !== str(hostIPs[0]!['ip'])) errs.push(invalid(hostIPsPath.index(0).child('ip'), str(hostIPs[0]!['ip']), 'must be equal to `hostIP`'));
    hostIPs.forEach((ip, i) => errs.push(...isValidIPForLegacyField(hostIPsPath.index(i), str(ip['ip']), false)));
    if (hostIPs.length > 1) errs.push(...validateIPList(hostIPs, hostIPsPath, true));
  }
  return errs;
}

/**
 * The pods/ephemeralcontainers subresource: the new pod must be valid, and existing ephemeral
 * containers may be neither removed nor changed (new ones may be added).
 */
export function validatePodEphemeralContainersUpdate(pod: KubeObject, old: KubeObject, opts: PodValidationOptions): ErrorList {
  const metaPath = Path.root('metadata');
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata, metaPath);
  errs.push(...validatePodMetadataAndSpec(pod, opts));
  errs.push(...validatePodSpecificAnnotationUpdates(pod.metadata.annotations, old.metadata.annotations, metaPath.child('annotations')));
  errs.push(...validatePodSpecificAnnotations(pod.metadata.annotations, specOf(pod), metaPath.child('annotations'), opts));
  if (obj(old.metadata.annotations)?.[mirrorPodAnnotation] !== undefined) {
    return [forbidden(Path.root(''), 'static pods do not support ephemeral containers')];
  }
  const specPath = Path.root('spec', 'ephemeralContainers');
  const byName = new Map(objs(specOf(pod)['ephemeralContainers']).map((c) => [str(c['name']), c]));
  for (const oldContainer of objs(specOf(old)['ephemeralContainers'])) {
    const name = str(oldContainer['name']);
    const current = byName.get(name);
    if (!current) errs.push(forbidden(specPath, `existing ephemeral containers ${goQuote(name)} may not be removed\n`));
    else if (!semanticEqual(oldContainer, current)) {
      errs.push(forbidden(specPath, `existing ephemeral containers ${goQuote(name)} may not be changed\n${specDiff(oldContainer, current)}`));
    }
  }
  return errs;
}

registerValidator('', 'Pod', {
  create: (pod) => validatePodCreate(pod, podValidationOptions(true, undefined, undefined)),
  update: (pod, old) => validatePodUpdate(pod, old, podValidationOptions(true, specOf(old), metaOf(old))),
  updateStatus: (pod, old) => validatePodStatusUpdate(pod, old, podValidationOptions(true, specOf(old), metaOf(old))),
});
