/** The checks of policy.DefaultChecks(): every check assigned to a policy version in 1.35. */
import { hostNamespaces, hostPathVolumes, hostPorts, hostProbesAndHostLifecycle, windowsHostProcess } from './host';
import { allowPrivilegeEscalation, capabilitiesBaseline, capabilitiesRestricted, privileged, procMountBaseline, procMountRestricted } from './privilege';
import { appArmorProfile, seccompProfileBaseline, seccompProfileRestricted, seLinuxOptions, sysctls } from './profiles';
import { runAsNonRoot, runAsUser } from './users';
import { restrictedVolumes } from './volumes';
import type { Check } from './types';

export const DEFAULT_CHECKS: readonly Check[] = [
  allowPrivilegeEscalation,
  appArmorProfile,
  capabilitiesBaseline,
  capabilitiesRestricted,
  hostNamespaces,
  hostPathVolumes,
  hostPorts,
  hostProbesAndHostLifecycle,
  privileged,
  procMountBaseline,
  procMountRestricted,
  restrictedVolumes,
  runAsNonRoot,
  runAsUser,
  seccompProfileBaseline,
  seccompProfileRestricted,
  seLinuxOptions,
  sysctls,
  windowsHostProcess,
];

export type { Check } from './types';
