/**
 * Security contexts: container and pod level, seccomp and AppArmor profiles, sysctls, Windows
 * options, user namespaces and the per-OS restrictions. Upstream keeps hostNetwork, hostPID,
 * hostIPC, hostUsers and shareProcessNamespace inside the internal PodSecurityContext; in v1
 * they sit on the pod spec, so the pod-level view here merges them back.
 */
import { duplicate, forbidden, invalid, notSupported, required, tooLong, type ErrorList, type FieldError, type Path } from '../../../api/field';
import { isDNS1123Subdomain, isValidGroupID, isValidUserID } from '../../../api/names';
import { securityContextStruct, seccompProfileStruct } from './gostruct';
import { arr, bool, int, isSet, num, obj, objs, str, type Obj } from './json';
import { hostSysctlConflict, type PodValidationOptions } from './options';
import { validateLocalDescendingPath } from './paths';
import { own } from '../../../api/own';

/** The internal PodSecurityContext of a v1 pod spec. */
export function podSecurityContext(spec: Obj): Obj {
  const sc = obj(spec['securityContext']) ?? {};
  return {
    ...sc,
    hostNetwork: spec['hostNetwork'],
    hostPID: spec['hostPID'],
    hostIPC: spec['hostIPC'],
    hostUsers: spec['hostUsers'],
    shareProcessNamespace: spec['shareProcessNamespace'],
  };
}

const seccompTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'];

export function validateSeccompProfileField(profile: unknown, fldPath: Path): ErrorList {
  const sp = obj(profile);
  if (!sp) return [];
  const errs: ErrorList = [];
  const type = str(sp['type']);
  if (type === '') errs.push(required(fldPath.child('type'), 'type is required when seccompProfile is set'));
  else if (!seccompTypes.includes(type)) errs.push(notSupported(fldPath.child('type'), type, seccompTypes));
  if (type === 'Localhost') {
    if (!isSet(sp['localhostProfile'])) errs.push(required(fldPath.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(str(sp['localhostProfile']), fldPath.child('localhostProfile')));
  } else if (isSet(sp['localhostProfile'])) {
    errs.push(invalid(fldPath.child('localhostProfile'), seccompProfileStruct(sp), 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

export function validateAppArmorProfileField(profile: unknown, fldPath: Path): ErrorList {
  const p = obj(profile);
  if (!p) return [];
  const errs: ErrorList = [];
  const type = str(p['type']);
  switch (type) {
    case 'Localhost': {
      if (!isSet(p['localhostProfile'])) {
        errs.push(required(fldPath.child('localhostProfile'), 'must be set when AppArmor type is Localhost'));
        break;
      }
      const lp = str(p['localhostProfile']);
      if (lp.trim() !== lp) errs.push(invalid(fldPath.child('localhostProfile'), lp, 'must not be padded with whitespace'));
      else if (lp === '') errs.push(required(fldPath.child('localhostProfile'), 'must be set when AppArmor type is Localhost'));
      if (Buffer.byteLength(lp) > 4095) errs.push(tooLong(fldPath.child('localhostProfile'), 4095));
      break;
    }
    case 'RuntimeDefault':
    case 'Unconfined':
      if (isSet(p['localhostProfile'])) {
        errs.push(invalid(fldPath.child('localhostProfile'), str(p['localhostProfile']), 'can only be set when AppArmor type is Localhost'));
      }
      break;
    case '':
      errs.push(required(fldPath.child('type'), 'type is required when appArmorProfile is set'));
      break;
    default:
      errs.push(notSupported(fldPath.child('type'), type, seccompTypes));
  }
  return errs;
}

const procMountTypes = ['Default', 'Unmasked'];

/** ValidateSecurityContext for one container. Privileged containers are allowed (--allow-privileged). */
export function validateSecurityContext(securityContext: unknown, fldPath: Path, hostUsers: boolean): ErrorList {
  const sc = obj(securityContext);
  if (!sc) return [];
  const errs: ErrorList = [];
  const runAsUser = num(sc['runAsUser']);
  if (runAsUser !== undefined) errs.push(...isValidUserID(runAsUser).map((m) => invalid(fldPath.child('runAsUser'), runAsUser, m)));
  const runAsGroup = num(sc['runAsGroup']);
  if (runAsGroup !== undefined) errs.push(...isValidGroupID(runAsGroup).map((m) => invalid(fldPath.child('runAsGroup'), runAsGroup, m)));
  if (isSet(sc['procMount'])) {
    const pm = str(sc['procMount']);
    if (!procMountTypes.includes(pm)) errs.push(notSupported(fldPath.child('procMount'), pm, procMountTypes));
    if (hostUsers && pm === 'Unmasked') errs.push(invalid(fldPath.child('procMount'), pm, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...validateSeccompProfileField(sc['seccompProfile'], fldPath.child('seccompProfile')));
  if (sc['allowPrivilegeEscalation'] === false) {
    if (sc['privileged'] === true) {
      errs.push(invalid(fldPath, securityContextStruct(sc), 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    }
    for (const cap of arr(obj(sc['capabilities'])?.['add'])) {
      if (cap === 'CAP_SYS_ADMIN') {
        errs.push(invalid(fldPath, securityContextStruct(sc), 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
      }
    }
  }
  errs.push(...validateWindowsSecurityContextOptions(sc['windowsOptions'], fldPath.child('windowsOptions')));
  errs.push(...validateAppArmorProfileField(sc['appArmorProfile'], fldPath.child('appArmorProfile')));
  return errs;
}

const sysctlSegment = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const sysctlContainSlashFmt = `(${sysctlSegment}[\\./])*${sysctlSegment}`;
const sysctlRegexp = new RegExp(`^${sysctlContainSlashFmt}$`);

export function isValidSysctlName(name: string): boolean {
  return name.length <= 253 && sysctlRegexp.test(name);
}

function validateSysctls(psc: Obj, fldPath: Path, opts: PodValidationOptions): ErrorList {
  const errs: ErrorList = [];
  const names = new Set<string>();
  objs(psc['sysctls']).forEach((s, i) => {
    const name = str(s['name']);
    const namePath = fldPath.index(i).child('name');
    if (name.length === 0) errs.push(required(namePath, ''));
    else if (!isValidSysctlName(name)) errs.push(invalid(namePath, name, `must have at most 253 characters and match regex ^${sysctlContainSlashFmt}$`));
    else if (names.has(name)) errs.push(duplicate(namePath, name));
    if (!opts.allowNamespacedSysctlsForHostNetAndHostIPC) {
      const conflict = hostSysctlConflict(name, psc);
      if (conflict === 'net') errs.push(invalid(namePath, name, "may not be specified when 'hostNetwork' is true"));
      if (conflict === 'ipc') errs.push(invalid(namePath, name, "may not be specified when 'hostIPC' is true"));
    }
    names.add(name);
  });
  return errs;
}

const fsGroupChangePolicies = ['Always', 'OnRootMismatch'];
const supplementalGroupsPolicies = ['Merge', 'Strict'];
const seLinuxChangePolicies = ['MountOption', 'Recursive'];

export function validatePodSpecSecurityContext(spec: Obj, fldPath: Path, opts: PodValidationOptions): ErrorList {
  const sc = podSecurityContext(spec);
  const errs: ErrorList = [];
  const idChecks: [string, (n: number) => string[]][] = [
    ['fsGroup', isValidGroupID],
    ['runAsUser', isValidUserID],
    ['runAsGroup', isValidGroupID],
  ];
  for (const [field, check] of idChecks) {
    const v = num(own(sc, field));
    if (v !== undefined) errs.push(...check(v).map((m) => invalid(fldPath.child(field), v, m)));
  }
  arr(sc['supplementalGroups']).forEach((g, i) => {
    errs.push(...isValidGroupID(int(g)).map((m) => invalid(fldPath.child('supplementalGroups').index(i), int(g), m)));
  });
  if (sc['shareProcessNamespace'] === true && bool(sc['hostPID'])) {
    errs.push(invalid(fldPath.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (arr(sc['sysctls']).length !== 0) errs.push(...validateSysctls(sc, fldPath.child('sysctls'), opts));
  if (isSet(sc['fsGroupChangePolicy']) && !fsGroupChangePolicies.includes(str(sc['fsGroupChangePolicy']))) {
    errs.push(notSupported(fldPath.child('fsGroupChangePolicy'), str(sc['fsGroupChangePolicy']), fsGroupChangePolicies));
  }
  errs.push(...validateSeccompProfileField(sc['seccompProfile'], fldPath.child('seccompProfile')));
  errs.push(...validateWindowsSecurityContextOptions(sc['windowsOptions'], fldPath.child('windowsOptions')));
  errs.push(...validateAppArmorProfileField(sc['appArmorProfile'], fldPath.child('appArmorProfile')));
  if (isSet(sc['supplementalGroupsPolicy']) && !supplementalGroupsPolicies.includes(str(sc['supplementalGroupsPolicy']))) {
    errs.push(notSupported(fldPath.child('supplementalGroupsPolicy'), str(sc['supplementalGroupsPolicy']), supplementalGroupsPolicies));
  }
  if (isSet(sc['seLinuxChangePolicy'])) {
    const policy = str(sc['seLinuxChangePolicy']);
    const allowed = opts.allowOnlyRecursiveSELinuxChangePolicy ? ['Recursive'] : seLinuxChangePolicies;
    if (!allowed.includes(policy)) errs.push(notSupported(fldPath.child('seLinuxChangePolicy'), policy, allowed));
  }
  return errs;
}

const ctrlRegex = /[\x00-\x1f\x7f]/;
const validNetBiosRegex = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const dnsLabelFormat = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const windowsDomainDNSRegex = new RegExp(`^${dnsLabelFormat}(?:\\.${dnsLabelFormat})*$`);
const invalidUserNameCharsRegex = /["/\\:;|=,+*?<>@[\]]/;
const invalidUserNameDotsSpacesRegex = /^[. ]+$/;

export function validateWindowsSecurityContextOptions(options: unknown, fldPath: Path): ErrorList {
  const w = obj(options);
  if (!w) return [];
  const errs: ErrorList = [];
  if (isSet(w['gmsaCredentialSpecName'])) {
    const name = str(w['gmsaCredentialSpecName']);
    errs.push(...isDNS1123Subdomain(name).map((m) => invalid(fldPath.child('gmsaCredentialSpecName'), name, m)));
  }
  if (isSet(w['gmsaCredentialSpec'])) {
    const spec = str(w['gmsaCredentialSpec']);
    const path = fldPath.child('gmsaCredentialSpec');
    if (spec.length === 0) errs.push(invalid(path, spec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (Buffer.byteLength(spec) > 64 * 1024) errs.push(invalid(path, spec, 'gmsaCredentialSpec size must be under 64 KiB'));
  }
  if (isSet(w['runAsUserName'])) errs.push(...validateRunAsUserName(str(w['runAsUserName']), fldPath.child('runAsUserName')));
  return errs;
}

function validateRunAsUserName(name: string, fldPath: Path): ErrorList {
  const bad = (msg: string): FieldError => invalid(fldPath, name, msg);
  if (name.length === 0) return [bad('runAsUserName cannot be an empty string')];
  if (ctrlRegex.test(name)) return [bad('runAsUserName cannot contain control characters')];
  const parts = name.split('\\');
  if (parts.length > 2) return [bad('runAsUserName cannot contain more than one backslash')];
  const hasDomain = parts.length === 2;
  const domain = hasDomain ? parts[0]! : '';
  const user = hasDomain ? parts[1]! : parts[0]!;
  const errs: ErrorList = [];
  if (Buffer.byteLength(domain) >= 256) errs.push(bad("runAsUserName's Domain length must be under 256 characters"));
  if (hasDomain && !(validNetBiosRegex.test(domain) || windowsDomainDNSRegex.test(domain))) {
    errs.push(bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
  }
  if (user.length === 0) errs.push(bad("runAsUserName's User cannot be empty"));
  else if (Buffer.byteLength(user) > 104) errs.push(bad("runAsUserName's User length must not be longer than 104 characters"));
  if (invalidUserNameDotsSpacesRegex.test(user)) errs.push(bad("runAsUserName's User cannot contain only periods or spaces"));
  if (invalidUserNameCharsRegex.test(user)) errs.push(bad('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]'));
  return errs;
}

/** User namespaces (hostUsers: false) exclude the host namespaces. */
export function validateHostUsers(spec: Obj, fldPath: Path): ErrorList {
  if (spec['hostUsers'] !== false) return [];
  const errs: ErrorList = [];
  const msg = 'when `pod.Spec.HostUsers` is false';
  if (bool(spec['hostNetwork'])) errs.push(forbidden(fldPath.child('hostNetwork'), msg));
  if (bool(spec['hostPID'])) errs.push(forbidden(fldPath.child('HostPID'), msg));
  if (bool(spec['hostIPC'])) errs.push(forbidden(fldPath.child('HostIPC'), msg));
  return errs;
}
