/** spec.os and the settings each OS forbids; Windows HostProcess pods. */
import { forbidden, invalid, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { arr, bool, isSet, obj, objs, str, type Obj } from './json';

/** podshelper.VisitContainersWithPath: init, regular, then ephemeral containers with their paths. */
export function containersWithPaths(spec: Obj, specPath: Path): [Obj, Path][] {
  const out: [Obj, Path][] = [];
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    objs(spec[kind]).forEach((c, i) => out.push([c, specPath.child(kind).index(i)]));
  }
  return out;
}

const validOS = ['linux', 'windows'];

/** Errors of spec.os, then the OS-specific restrictions when the name is valid. */
export function validatePodOS(spec: Obj, fldPath: Path): ErrorList {
  const os = obj(spec['os']);
  if (!os) return [];
  const name = str(os['name']);
  if (name.length === 0) return [required(fldPath.child('os', 'name'), 'cannot be empty')];
  if (!validOS.includes(name)) return [notSupported(fldPath.child('os'), name, validOS)];
  return name === 'linux' ? validateLinux(spec, fldPath) : validateWindows(spec, fldPath);
}

function validateLinux(spec: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const msg = 'windows options cannot be set for a linux pod';
  if (isSet(obj(spec['securityContext'])?.['windowsOptions'])) errs.push(forbidden(fldPath.child('securityContext', 'windowsOptions'), msg));
  for (const [c, path] of containersWithPaths(spec, fldPath)) {
    if (isSet(obj(c['securityContext'])?.['windowsOptions'])) errs.push(forbidden(path.child('securityContext', 'windowsOptions'), msg));
  }
  return errs;
}

const notForWindows = 'cannot be set for a windows pod';

function validateWindows(spec: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const sc = obj(spec['securityContext']) ?? {};
  const scPath = fldPath.child('securityContext');
  if (isSet(sc['appArmorProfile'])) errs.push(forbidden(scPath.child('appArmorProfile'), notForWindows));
  if (isSet(sc['seLinuxOptions'])) errs.push(forbidden(scPath.child('seLinuxOptions'), notForWindows));
  if (isSet(spec['hostUsers'])) errs.push(forbidden(fldPath.child('hostUsers'), notForWindows));
  if (bool(spec['hostPID'])) errs.push(forbidden(fldPath.child('hostPID'), notForWindows));
  if (bool(spec['hostIPC'])) errs.push(forbidden(fldPath.child('hostIPC'), notForWindows));
  if (isSet(sc['seccompProfile'])) errs.push(forbidden(scPath.child('seccompProfile'), notForWindows));
  if (isSet(sc['fsGroup'])) errs.push(forbidden(scPath.child('fsGroup'), notForWindows));
  if (isSet(sc['fsGroupChangePolicy'])) errs.push(forbidden(scPath.child('fsGroupChangePolicy'), notForWindows));
  if (arr(sc['sysctls']).length > 0) errs.push(forbidden(scPath.child('sysctls'), notForWindows));
  if (isSet(spec['shareProcessNamespace'])) errs.push(forbidden(fldPath.child('shareProcessNamespace'), notForWindows));
  if (isSet(sc['runAsUser'])) errs.push(forbidden(scPath.child('runAsUser'), notForWindows));
  if (isSet(sc['runAsGroup'])) errs.push(forbidden(scPath.child('runAsGroup'), notForWindows));
  if (isSet(sc['supplementalGroups'])) errs.push(forbidden(scPath.child('supplementalGroups'), notForWindows));
  if (isSet(sc['supplementalGroupsPolicy'])) errs.push(forbidden(scPath.child('supplementalGroupsPolicy'), notForWindows));
  if (isSet(sc['seLinuxChangePolicy'])) errs.push(forbidden(scPath.child('seLinuxChangePolicy'), notForWindows));
  const containerFields = [
    'appArmorProfile',
    'seLinuxOptions',
    'seccompProfile',
    'capabilities',
    'readOnlyRootFilesystem',
    'privileged',
    'allowPrivilegeEscalation',
    'procMount',
    'runAsUser',
    'runAsGroup',
  ] as const;
  for (const [c, path] of containersWithPaths(spec, fldPath)) {
    const csc = obj(c['securityContext']);
    if (!csc) continue;
    for (const f of containerFields) if (isSet(csc[f])) errs.push(forbidden(path.child('securityContext', f), notForWindows));
  }
  return errs;
}

/** A Windows pod is all-HostProcess or not at all, and HostProcess pods use the host network. */
export function validateWindowsHostProcessPod(spec: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const podHostProcess = obj(obj(spec['securityContext'])?.['windowsOptions'])?.['hostProcess'];
  const hostNetwork = bool(spec['hostNetwork']);
  let containerCount = 0;
  let hostProcessCount = 0;
  for (const [c, path] of containersWithPaths(spec, fldPath)) {
    containerCount++;
    const own = obj(obj(c['securityContext'])?.['windowsOptions'])?.['hostProcess'];
    if (typeof podHostProcess === 'boolean' && typeof own === 'boolean' && podHostProcess !== own) {
      errs.push(invalid(path.child('securityContext', 'windowsOptions', 'hostProcess'), own, `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`));
    }
    if (own === true || (typeof own !== 'boolean' && podHostProcess === true)) hostProcessCount++;
  }
  if (hostProcessCount > 0) {
    if (hostProcessCount !== containerCount) {
      errs.push(invalid(fldPath, '', 'If pod contains any hostProcess containers then all containers must be HostProcess containers'));
    }
    if (!hostNetwork) errs.push(invalid(fldPath.child('hostNetwork'), hostNetwork, 'hostNetwork must be true if pod contains any hostProcess containers'));
  }
  return errs;
}
