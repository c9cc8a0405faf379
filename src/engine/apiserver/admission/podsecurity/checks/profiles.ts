/**
 * Baseline and restricted checks on security profiles: AppArmor, SELinux options, seccomp, and
 * the sysctls a pod may set.
 */
import { containerName, containers, containersPhrase, isWindows, joinQuote, listAt, objectAt, pluralize, securityContext, sortedSet, stringAt } from '../pod';
import { goQuote } from '../../../../api/gofmt';
import { ALLOWED, forbidden } from '../result';
import type { JsonObject } from '../../../../api/types';
import { exceptWindows, type Check, type CheckFn } from './types';
import { setOwn } from '../../../../api/own';

const annotationsOf = (metadata: JsonObject): Record<string, string> => {
  const a = objectAt(metadata, 'annotations');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(a ?? {})) if (typeof v === 'string') setOwn(out, k, v);
  return out;
};

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const allowedAppArmorAnnotation = (v: string): boolean => v === '' || v === 'runtime/default' || v.startsWith('localhost/');
const allowedAppArmorType = (t: string): boolean => t === 'RuntimeDefault' || t === 'Localhost';

export const appArmorProfile: Check = {
  id: 'appArmorProfile',
  level: 'baseline',
  versions: [
    {
      minimumVersion: 0,
      check: ({ metadata, spec }) => {
        const setters: string[] = [];
        const badValues: string[] = [];
        const podProfile = objectAt(objectAt(spec, 'securityContext'), 'appArmorProfile');
        if (podProfile && !allowedAppArmorType(stringAt(podProfile, 'type'))) {
          setters.push('pod');
          badValues.push(stringAt(podProfile, 'type'));
        }
        const bad: string[] = [];
        for (const c of containers(spec)) {
          const profile = objectAt(securityContext(c), 'appArmorProfile');
          if (profile && !allowedAppArmorType(stringAt(profile, 'type'))) {
            bad.push(containerName(c));
            badValues.push(stringAt(profile, 'type'));
          }
        }
        if (bad.length > 0) setters.push(containersPhrase(bad));
        const annotations = Object.entries(annotationsOf(metadata))
          .filter(([k, v]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !allowedAppArmorAnnotation(v))
          .map(([k, v]) => `${k}=${goQuote(v)}`)
          .sort();
        const values = [...sortedSet(badValues), ...annotations];
        if (annotations.length > 0) setters.push(pluralize('annotation', 'annotations', annotations.length));
        if (setters.length === 0) return ALLOWED;
        return forbidden(
          pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
          `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`,
        );
      },
    },
  ],
};

const SELINUX_TYPES_1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const SELINUX_TYPES_1_31 = new Set([...SELINUX_TYPES_1_0, 'container_engine_t']);

const seLinuxOptionsCheck =
  (allowedTypes: ReadonlySet<string>): CheckFn =>
  ({ spec }) => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const valid = (opts: JsonObject): boolean => {
      let ok = true;
      const type = stringAt(opts, 'type');
      if (!allowedTypes.has(type)) {
        ok = false;
        badTypes.push(type);
      }
      if (stringAt(opts, 'user') !== '') {
        ok = false;
        setUser = true;
      }
      if (stringAt(opts, 'role') !== '') {
        ok = false;
        setRole = true;
      }
      return ok;
    };
    const setters: string[] = [];
    const podOptions = objectAt(objectAt(spec, 'securityContext'), 'seLinuxOptions');
    if (podOptions && !valid(podOptions)) setters.push('pod');
    const bad: string[] = [];
    for (const c of containers(spec)) {
      const opts = objectAt(securityContext(c), 'seLinuxOptions');
      if (opts && !valid(opts)) bad.push(containerName(c));
    }
    if (bad.length > 0) setters.push(containersPhrase(bad));
    if (setters.length === 0) return ALLOWED;
    const data: string[] = [];
    const types = sortedSet(badTypes);
    if (types.length > 0) data.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) data.push('user may not be set');
    if (setRole) data.push('role may not be set');
    return forbidden('seLinuxOptions', `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`);
  };

export const seLinuxOptions: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  versions: [
    { minimumVersion: 0, check: seLinuxOptionsCheck(SELINUX_TYPES_1_0) },
    { minimumVersion: 31, check: seLinuxOptionsCheck(SELINUX_TYPES_1_31) },
  ],
};

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const validSeccompType = (t: string): boolean => t === 'Localhost' || t === 'RuntimeDefault';
const validSeccompAnnotation = (v: string): boolean => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

const seccompBaseline1_0: CheckFn = ({ metadata, spec }) => {
  const annotations = annotationsOf(metadata);
  const found: string[] = [];
  const look = (key: string): void => {
    if (Object.hasOwn(annotations, key) && !validSeccompAnnotation(annotations[key]!)) found.push(`${key}=${goQuote(annotations[key]!)}`);
  };
  look(SECCOMP_POD_ANNOTATION);
  for (const c of containers(spec)) look(SECCOMP_CONTAINER_ANNOTATION_PREFIX + containerName(c));
  if (found.length === 0) return ALLOWED;
  const list = sortedSet(found);
  return forbidden('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', list.length)} ${list.join(', ')}`);
};

/** The pod- and container-level seccompProfile.type values that are not allowed at all. */
function explicitSeccomp(spec: JsonObject): { setters: string[]; badValues: string[]; podSet: boolean; unset: string[] } {
  const setters: string[] = [];
  const badValues: string[] = [];
  let podSet = false;
  const podProfile = objectAt(objectAt(spec, 'securityContext'), 'seccompProfile');
  if (podProfile) {
    if (!validSeccompType(stringAt(podProfile, 'type'))) {
      setters.push('pod');
      badValues.push(stringAt(podProfile, 'type'));
    } else podSet = true;
  }
  const bad: string[] = [];
  const unset: string[] = [];
  for (const c of containers(spec)) {
    const profile = objectAt(securityContext(c), 'seccompProfile');
    if (profile) {
      if (!validSeccompType(stringAt(profile, 'type'))) {
        bad.push(containerName(c));
        badValues.push(stringAt(profile, 'type'));
      }
    } else if (!podSet) unset.push(containerName(c));
  }
  if (bad.length > 0) setters.push(containersPhrase(bad));
  return { setters, badValues, podSet, unset };
}

const explicitSeccompResult = (setters: string[], badValues: string[]) =>
  forbidden('seccompProfile', `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`);

const seccompBaseline1_19: CheckFn = ({ spec }) => {
  const { setters, badValues } = explicitSeccomp(spec);
  return setters.length > 0 ? explicitSeccompResult(setters, badValues) : ALLOWED;
};

export const SECCOMP_BASELINE_ID = 'seccompProfile_baseline';

export const seccompProfileBaseline: Check = {
  id: SECCOMP_BASELINE_ID,
  level: 'baseline',
  versions: [
    { minimumVersion: 0, check: seccompBaseline1_0 },
    { minimumVersion: 19, check: seccompBaseline1_19 },
  ],
};

const seccompRestricted1_19: CheckFn = ({ spec }) => {
  const { setters, badValues, unset } = explicitSeccomp(spec);
  if (setters.length > 0) return explicitSeccompResult(setters, badValues);
  if (unset.length > 0) {
    return forbidden('seccompProfile', `pod or ${containersPhrase(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
  }
  return ALLOWED;
};

export const seccompProfileRestricted: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 19, check: seccompRestricted1_19, overrides: [SECCOMP_BASELINE_ID] },
    { minimumVersion: 25, check: exceptWindows(seccompRestricted1_19, isWindows), overrides: [SECCOMP_BASELINE_ID] },
  ],
};

const SYSCTLS_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [...SYSCTLS_1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

const sysctlsCheck = (allowed: readonly string[]): CheckFn => {
  const safe = new Set(allowed);
  return ({ spec }) => {
    const names = listAt(objectAt(spec, 'securityContext'), 'sysctls')
      .map((s) => stringAt(s, 'name'))
      .filter((n) => !safe.has(n));
    return names.length > 0 ? forbidden('forbidden sysctls', names.join(', ')) : ALLOWED;
  };
};

export const sysctls: Check = {
  id: 'sysctls',
  level: 'baseline',
  versions: [
    { minimumVersion: 0, check: sysctlsCheck(SYSCTLS_1_0) },
    { minimumVersion: 27, check: sysctlsCheck(SYSCTLS_1_27) },
    { minimumVersion: 29, check: sysctlsCheck(SYSCTLS_1_29) },
    { minimumVersion: 32, check: sysctlsCheck(SYSCTLS_1_32) },
  ],
};
