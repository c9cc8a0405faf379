/**
 * Annotations with meaning for pods: mirror pods, legacy tolerations, deletion cost and the
 * deprecated seccomp and AppArmor annotations (which must agree with the fields when both are set).
 */
import { forbidden, invalid, type ErrorList, type Path } from '../../../api/field';
import { goQuote } from '../../../api/gofmt';
import { obj, str, strMap, type Obj } from './json';
import { deletionCostAnnotation, isValidDeletionCost, type PodValidationOptions } from './options';
import { containersWithPaths } from './os';
import { validateLocalDescendingPath } from './paths';
import { validateTolerations } from './tolerations';
import { setOwn } from '../../../api/own';

export const mirrorPodAnnotation = 'kubernetes.io/config.mirror';
const tolerationsAnnotation = 'scheduler.alpha.kubernetes.io/tolerations';
const seccompPodAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const seccompContainerPrefix = 'container.seccomp.security.alpha.kubernetes.io/';
export const appArmorContainerPrefix = 'container.apparmor.security.beta.kubernetes.io/';

export function validatePodSpecificAnnotations(annotations: unknown, spec: Obj, fldPath: Path, opts: PodValidationOptions): ErrorList {
  const ann = new Map(strMap(annotations));
  const errs: ErrorList = [];
  const mirror = ann.get(mirrorPodAnnotation);
  if (mirror !== undefined && str(spec['nodeName']).length === 0) {
    errs.push(invalid(fldPath.key(mirrorPodAnnotation), mirror, 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const tolerations = ann.get(tolerationsAnnotation) ?? '';
  if (tolerations !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(tolerations);
    } catch (e) {
      errs.push(invalid(fldPath, tolerationsAnnotation, goJSONErrorText(e)));
    }
    if (parsed !== undefined) {
      if (Array.isArray(parsed) || parsed === null) {
        if (Array.isArray(parsed) && parsed.length > 0) errs.push(...validateTolerations(parsed.map(lowerFirstKeys), fldPath.child(tolerationsAnnotation)));
      } else {
        errs.push(invalid(fldPath, tolerationsAnnotation, `json: cannot unmarshal ${jsonKind(parsed)} into Go value of type []core.Toleration`));
      }
    }
  }
  const cost = ann.get(deletionCostAnnotation);
  if (!opts.allowInvalidPodDeletionCost && cost !== undefined && !isValidDeletionCost(cost)) {
    errs.push(invalid(fldPath.key(deletionCostAnnotation), cost, 'must be a 32bit integer'));
  }
  for (const [k, v] of ann) {
    if (k === seccompPodAnnotation || k.startsWith(seccompContainerPrefix)) errs.push(...validateSeccompProfileAnnotation(v, fldPath.child(k)));
  }
  for (const [k, v] of ann) {
    if (!k.startsWith(appArmorContainerPrefix)) continue;
    const containerName = k.slice(appArmorContainerPrefix.length);
    if (!containersWithPaths(spec, fldPath).some(([c]) => str(c['name']) === containerName)) {
      errs.push(invalid(fldPath.key(k), containerName, 'container not found'));
    }
    if (v !== '' && v !== 'runtime/default' && v !== 'unconfined' && !v.startsWith('localhost/')) {
      errs.push(invalid(fldPath.key(k), v, `invalid AppArmor profile name: ${goQuote(v)}`));
    }
  }
  return errs;
}

/** Go decodes the annotation into a struct without JSON tags: keys match field names case-insensitively. */
function lowerFirstKeys(v: unknown): unknown {
  const o = obj(v);
  if (!o) return v;
  const out: Obj = {};
  for (const [k, val] of Object.entries(o)) setOwn(out, k.toLowerCase() === 'tolerationseconds' ? 'tolerationSeconds' : k.toLowerCase(), val);
  return out;
}

function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}

/** encoding/json's message for malformed input, as far as it can be inferred. */
function goJSONErrorText(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  if (/Unexpected end/i.test(msg)) return 'unexpected end of JSON input';
  const m = /Unexpected token '?(.)'?/.exec(msg);
  return m ? `invalid character '${m[1]}' looking for beginning of value` : msg;
}

function validateSeccompProfileAnnotation(profile: string, fldPath: Path): ErrorList {
  if (profile === 'runtime/default' || profile === 'docker/default' || profile === 'unconfined') return [];
  if (profile.startsWith('localhost/')) return validateLocalDescendingPath(profile.slice('localhost/'.length), fldPath);
  return [invalid(fldPath, profile, 'must be a valid seccomp profile')];
}

/** Mirror-pod and AppArmor annotations may not be added, changed or removed by an update. */
export function validatePodSpecificAnnotationUpdates(newAnn: unknown, oldAnn: unknown, fldPath: Path): ErrorList {
  const n = new Map(strMap(newAnn));
  const o = new Map(strMap(oldAnn));
  const errs: ErrorList = [];
  for (const [k, oldVal] of o) {
    if (n.get(k) === oldVal) continue;
    if (k.startsWith(appArmorContainerPrefix)) errs.push(forbidden(fldPath.key(k), 'may not remove or update AppArmor annotations'));
    if (k === mirrorPodAnnotation) errs.push(forbidden(fldPath.key(k), 'may not remove or update mirror pod annotation'));
  }
  for (const k of n.keys()) {
    if (o.has(k)) continue;
    if (k.startsWith(appArmorContainerPrefix)) errs.push(forbidden(fldPath.key(k), 'may not add AppArmor annotations'));
    if (k === mirrorPodAnnotation) errs.push(forbidden(fldPath.key(k), 'may not add mirror pod annotation'));
  }
  return errs;
}

function seccompMismatch(annotation: string, field: Obj, fldPath: Path): ErrorList {
  const type = str(field['type']);
  const typeErr = [forbidden(fldPath.child('type'), 'seccomp type in annotation and field must match')];
  if (type === 'Unconfined') return annotation !== 'unconfined' ? typeErr : [];
  if (type === 'RuntimeDefault') return annotation !== 'runtime/default' && annotation !== 'docker/default' ? typeErr : [];
  if (type === 'Localhost') {
    if (!annotation.startsWith('localhost/')) return typeErr;
    if (annotation.slice('localhost/'.length) !== str(field['localhostProfile']) || field['localhostProfile'] === undefined) {
      return [forbidden(fldPath.child('localhostProfile'), 'seccomp profile in annotation and field must match')];
    }
  }
  return [];
}

/** When both a seccomp annotation and the matching field are set, they must agree. */
export function validateSeccompAnnotationsAndFields(meta: Obj, spec: Obj, specPath: Path): ErrorList {
  const ann = new Map(strMap(meta['annotations']));
  const errs: ErrorList = [];
  const podProfile = obj(obj(spec['securityContext'])?.['seccompProfile']);
  const podAnn = ann.get(seccompPodAnnotation);
  if (podProfile && podAnn !== undefined) errs.push(...seccompMismatch(podAnn, podProfile, specPath.child('securityContext', 'seccompProfile')));
  for (const [c, path] of containersWithPaths(spec, specPath)) {
    const profile = obj(obj(c['securityContext'])?.['seccompProfile']);
    const a = ann.get(seccompContainerPrefix + str(c['name']));
    if (profile && a !== undefined) errs.push(...seccompMismatch(a, profile, path.child('securityContext', 'seccompProfile')));
  }
  return errs;
}

/** The same agreement for AppArmor, checked on create (Windows pods are exempt). */
export function validateAppArmorAnnotationsAndFieldsMatchOnCreate(meta: Obj, spec: Obj, specPath: Path): ErrorList {
  if (str(obj(spec['os'])?.['name']) === 'windows') return [];
  const ann = new Map(strMap(meta['annotations']));
  const errs: ErrorList = [];
  const podProfile = obj(obj(spec['securityContext'])?.['appArmorProfile']);
  for (const [c, path] of containersWithPaths(spec, specPath)) {
    const profile = obj(obj(c['securityContext'])?.['appArmorProfile']) ?? podProfile;
    if (!profile) continue;
    const a = ann.get(appArmorContainerPrefix + str(c['name']));
    if (a === undefined) continue;
    const apparmorPath = path.child('securityContext', 'appArmorProfile');
    const typeErr = forbidden(apparmorPath.child('type'), 'apparmor type in annotation and field must match');
    switch (str(profile['type'])) {
      case 'Unconfined':
        if (a !== 'unconfined') errs.push(typeErr);
        break;
      case 'RuntimeDefault':
        if (a !== 'runtime/default') errs.push(typeErr);
        break;
      case 'Localhost':
        if (!a.startsWith('localhost/')) errs.push(typeErr);
        else if (profile['localhostProfile'] === undefined || a.slice('localhost/'.length) !== str(profile['localhostProfile'])) {
          errs.push(forbidden(apparmorPath.child('localhostProfile'), 'apparmor profile in annotation and field must match'));
        }
        break;
    }
  }
  return errs;
}
