/**
 * Checks on what a container may do as root: privileged mode, privilege escalation, Linux
 * capabilities (baseline: no additions beyond the default set; restricted: drop ALL, add at
 * most NET_BIND_SERVICE) and /proc masks.
 */
import { boolAt, containerName, containers, containersPhrase, inUserNamespace, isWindows, joinQuote, objectAt, securityContext, sortedSet } from '../pod';
import { ALLOWED, forbidden } from '../result';
import type { JsonObject } from '../../../../api/types';
import { exceptWindows, type Check, type CheckFn } from './types';

export const privileged: Check = {
  id: 'privileged',
  level: 'baseline',
  versions: [
    {
      minimumVersion: 0,
      check: ({ spec }) => {
        const bad = containers(spec).filter((c) => boolAt(securityContext(c), 'privileged') === true).map(containerName);
        return bad.length > 0 ? forbidden('privileged', `${containersPhrase(bad)} must not set securityContext.privileged=true`) : ALLOWED;
      },
    },
  ],
};

const allowPrivilegeEscalation1_8: CheckFn = ({ spec }) => {
  // Unset counts as allowed: the container runtime's default is to allow escalation.
  const bad = containers(spec).filter((c) => boolAt(securityContext(c), 'allowPrivilegeEscalation') !== false).map(containerName);
  return bad.length > 0 ? forbidden('allowPrivilegeEscalation != false', `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`) : ALLOWED;
};

export const allowPrivilegeEscalation: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  versions: [
    { minimumVersion: 8, check: allowPrivilegeEscalation1_8 },
    { minimumVersion: 25, check: exceptWindows(allowPrivilegeEscalation1_8, isWindows) },
  ],
};

/** The container runtime's default capabilities: adding one of these is not an escalation. */
const DEFAULT_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

const capabilityList = (caps: JsonObject | undefined, key: 'add' | 'drop'): string[] => {
  const v = caps?.[key];
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : [];
};

export const CAPABILITIES_BASELINE_ID = 'capabilities_baseline';

export const capabilitiesBaseline: Check = {
  id: CAPABILITIES_BASELINE_ID,
  level: 'baseline',
  versions: [
    {
      minimumVersion: 0,
      check: ({ spec }) => {
        const bad: string[] = [];
        const added: string[] = [];
        for (const c of containers(spec)) {
          const caps = objectAt(securityContext(c), 'capabilities');
          if (!caps) continue;
          let valid = true;
          for (const cap of capabilityList(caps, 'add')) {
            if (DEFAULT_CAPABILITIES.has(cap)) continue;
            valid = false;
            added.push(cap);
          }
          if (!valid) bad.push(containerName(c));
        }
        if (bad.length === 0) return ALLOWED;
        return forbidden('non-default capabilities', `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`);
      },
    },
  ],
};

const capabilitiesRestricted1_22: CheckFn = ({ spec }) => {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCaps: string[] = [];
  for (const c of containers(spec)) {
    const caps = objectAt(securityContext(c), 'capabilities');
    if (!caps) {
      missingDropAll.push(containerName(c));
      continue;
    }
    if (!capabilityList(caps, 'drop').includes('ALL')) missingDropAll.push(containerName(c));
    let addedForbidden = false;
    for (const cap of capabilityList(caps, 'add')) {
      if (cap === 'NET_BIND_SERVICE') continue;
      addedForbidden = true;
      forbiddenCaps.push(cap);
    }
    if (addedForbidden) addingForbidden.push(containerName(c));
  }
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0) details.push(`${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCaps))} in securityContext.capabilities.add`);
  return details.length > 0 ? forbidden('unrestricted capabilities', details.join('; ')) : ALLOWED;
};

export const capabilitiesRestricted: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 22, check: capabilitiesRestricted1_22, overrides: [CAPABILITIES_BASELINE_ID] },
    { minimumVersion: 25, check: exceptWindows(capabilitiesRestricted1_22, isWindows), overrides: [CAPABILITIES_BASELINE_ID] },
  ],
};

const procMount1_0: CheckFn = ({ spec }) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of containers(spec)) {
    const sc = securityContext(c);
    const procMount = sc?.procMount;
    if (procMount === undefined || procMount === null) continue;
    if (procMount !== 'Default') {
      bad.push(containerName(c));
      types.push(String(procMount));
    }
  }
  if (bad.length === 0) return ALLOWED;
  return forbidden('procMount', `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`);
};

export const PROC_MOUNT_ID = 'procMount';

export const procMountBaseline: Check = {
  id: PROC_MOUNT_ID,
  level: 'baseline',
  versions: [
    { minimumVersion: 0, check: procMount1_0 },
    // From 1.35 a pod in a user namespace may unmask /proc at baseline.
    { minimumVersion: 35, check: (pod) => (inUserNamespace(pod.spec) ? ALLOWED : procMount1_0(pod)) },
  ],
};

export const procMountRestricted: Check = {
  id: 'procMount_restricted',
  level: 'restricted',
  versions: [{ minimumVersion: 35, check: procMount1_0, overrides: [PROC_MOUNT_ID] }],
};
