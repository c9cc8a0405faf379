/** ValidatePodSpec: a pod's spec, whether in a Pod or in a workload's pod template. */
import { duplicate, invalid, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { isValidIPForLegacyField } from '../../../api/ip';
import { inclusiveRangeError, nameIsDNSSubdomain, validateServiceAccountName } from '../../../api/names';
import { validateAffinity } from './affinity';
import { validateContainers, validateEphemeralContainers, validateInitContainers, type ContainerContext } from './container';
import { validatePodDNSConfig, validateDNSPolicy } from './dns';
import { podResourceClaimStruct } from './gostruct';
import { validateDNS1123Label, validateDNS1123Subdomain, validateName, validateQualifiedName } from './formats';
import { arr, bool, int, isSet, num, objs, str, strs, type Obj } from './json';
import { validateLabels } from './meta';
import type { PodValidationOptions } from './options';
import { validatePodOS, validateWindowsHostProcessPod } from './os';
import { validateContainerResourceRequirements, validatePodResources } from './resources';
import { validateHostUsers, validatePodSpecSecurityContext } from './security';
import { validateTolerations } from './tolerations';
import { validateTopologySpreadConstraints } from './topology';
import { validateVolumes } from './volumes';

const maxInt32 = 2147483647;

export function validatePodSpec(spec: Obj, podMeta: Obj | undefined, fldPath: Path, opts: PodValidationOptions): ErrorList {
  const errs: ErrorList = [];
  const gracePeriod = num(spec['terminationGracePeriodSeconds']);
  if (gracePeriod === undefined) errs.push(required(fldPath.child('terminationGracePeriodSeconds'), ''));
  const hostUsers = spec['hostUsers'] !== false;

  const { vols, errs: volErrs } = validateVolumes(spec['volumes'], podMeta, fldPath.child('volumes'), opts);
  errs.push(...volErrs);
  const podClaimNames = new Set(objs(spec['resourceClaims']).map((c) => str(c['name'])).filter((n) => n !== ''));
  errs.push(...validatePodResourceClaims(spec['resourceClaims'], fldPath.child('resourceClaims')));
  const ctx: ContainerContext = { volumes: vols, podClaimNames, gracePeriod, podRestartPolicy: str(spec['restartPolicy']), hostUsers, opts };
  errs.push(...validateContainers(spec['containers'], ctx, fldPath.child('containers')));
  errs.push(...validateInitContainers(spec['initContainers'], spec['containers'], ctx, fldPath.child('initContainers')));
  errs.push(...validateEphemeralContainers(spec['ephemeralContainers'], spec, ctx, fldPath.child('ephemeralContainers')));
  errs.push(...validatePodResources(spec, podClaimNames, fldPath.child('resources'), opts.allowIndivisibleHugePagesValues));
  errs.push(...validatePodHostNetworkDeps(spec, fldPath, opts));
  errs.push(...validateRestartPolicy(spec['restartPolicy'], fldPath.child('restartPolicy')));
  errs.push(...validateDNSPolicy(spec['dnsPolicy'], fldPath.child('dnsPolicy')));
  errs.push(...validateLabels(spec['nodeSelector'], fldPath.child('nodeSelector')));
  errs.push(...validatePodSpecSecurityContext(spec, fldPath.child('securityContext'), opts));
  errs.push(...validateAffinity(spec['affinity'], opts, fldPath.child('affinity')));
  errs.push(...validatePodDNSConfig(spec, fldPath.child('dnsConfig')));
  objs(spec['readinessGates']).forEach((g, i) => errs.push(...validateQualifiedName(str(g['conditionType']), fldPath.child('readinessGates').index(i).child('conditionType'))));
  errs.push(...validateSchedulingGates(spec['schedulingGates'], fldPath.child('schedulingGates')));
  errs.push(...validateTopologySpreadConstraints(spec['topologySpreadConstraints'], fldPath.child('topologySpreadConstraints'), opts));
  errs.push(...validateWindowsHostProcessPod(spec, fldPath));
  errs.push(...validateHostUsers(spec, fldPath));
  const serviceAccountName = str(spec['serviceAccountName']);
  if (serviceAccountName.length > 0) errs.push(...validateName(validateServiceAccountName, serviceAccountName, fldPath.child('serviceAccountName')));
  const nodeName = str(spec['nodeName']);
  if (nodeName.length > 0) errs.push(...validateName(nameIsDNSSubdomain, nodeName, fldPath.child('nodeName')));
  const activeDeadlineSeconds = num(spec['activeDeadlineSeconds']);
  if (activeDeadlineSeconds !== undefined && (activeDeadlineSeconds < 1 || activeDeadlineSeconds > maxInt32)) {
    errs.push(invalid(fldPath.child('activeDeadlineSeconds'), activeDeadlineSeconds, inclusiveRangeError(1, maxInt32)));
  }
  const hostname = str(spec['hostname']);
  if (hostname.length > 0) errs.push(...validateDNS1123Label(hostname, fldPath.child('hostname')));
  const subdomain = str(spec['subdomain']);
  if (subdomain.length > 0) errs.push(...validateDNS1123Label(subdomain, fldPath.child('subdomain')));
  if (arr(spec['tolerations']).length > 0) errs.push(...validateTolerations(spec['tolerations'], fldPath.child('tolerations')));
  errs.push(...validateHostAliases(spec['hostAliases'], fldPath.child('hostAliases')));
  const priorityClassName = str(spec['priorityClassName']);
  if (priorityClassName.length > 0) errs.push(...validateName(nameIsDNSSubdomain, priorityClassName, fldPath.child('priorityClassName')));
  if (isSet(spec['runtimeClassName'])) errs.push(...validateName(nameIsDNSSubdomain, str(spec['runtimeClassName']), fldPath.child('runtimeClassName')));
  if (isSet(spec['preemptionPolicy'])) errs.push(...validatePreemptionPolicy(spec['preemptionPolicy'], fldPath.child('preemptionPolicy')));
  if (isSet(spec['overhead'])) {
    errs.push(...validateContainerResourceRequirements({ limits: spec['overhead'] }, new Set(), fldPath.child('overhead'), opts.allowIndivisibleHugePagesValues));
  }
  errs.push(...validatePodOS(spec, fldPath));
  return errs;
}

const restartPolicies = ['Always', 'OnFailure', 'Never'];

function validateRestartPolicy(policy: unknown, fldPath: Path): ErrorList {
  const p = str(policy);
  if (p === '') return [required(fldPath, '')];
  return restartPolicies.includes(p) ? [] : [notSupported(fldPath, p, restartPolicies)];
}

const preemptionPolicies = ['PreemptLowerPriority', 'Never'];

export function validatePreemptionPolicy(policy: unknown, fldPath: Path): ErrorList {
  const p = str(policy);
  if (p === '') return [required(fldPath, '')];
  return preemptionPolicies.includes(p) ? [] : [notSupported(fldPath, p, preemptionPolicies)];
}

/** With hostNetwork, host ports equal container ports (templates may leave them 0 for defaulting). */
function validatePodHostNetworkDeps(spec: Obj, fldPath: Path, opts: PodValidationOptions): ErrorList {
  if (!bool(spec['hostNetwork'])) return [];
  const errs: ErrorList = [];
  objs(spec['containers']).forEach((c, i) => {
    objs(c['ports']).forEach((port, j) => {
      const hp = int(port['hostPort']);
      const cp = int(port['containerPort']);
      if ((opts.resourceIsPod || hp !== 0) && hp !== cp) {
        errs.push(invalid(fldPath.child('containers').index(i).child('ports').index(j).child('hostPort'), hp, 'must match `containerPort` when `hostNetwork` is true'));
      }
    });
  });
  return errs;
}

function validateSchedulingGates(gates: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  objs(gates).forEach((g, i) => {
    const name = str(g['name']);
    errs.push(...validateQualifiedName(name, fldPath.index(i)));
    if (seen.has(name)) errs.push(duplicate(fldPath.index(i), name));
    seen.add(name);
  });
  return errs;
}

function validateHostAliases(aliases: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  objs(aliases).forEach((alias, i) => {
    errs.push(...isValidIPForLegacyField(fldPath.index(i).child('ip'), str(alias['ip']), false));
    strs(alias['hostnames']).forEach((h, j) => errs.push(...validateDNS1123Subdomain(h, fldPath.index(i).child('hostnames').index(j))));
  });
  return errs;
}

function validatePodResourceClaims(claims: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const names = new Set<string>();
  objs(claims).forEach((claim, i) => {
    const path = fldPath.index(i);
    const name = str(claim['name']);
    if (name === '') {
      errs.push(required(path.child('name'), ''));
    } else if (names.has(name)) {
      errs.push(duplicate(path.child('name'), name));
    } else {
      errs.push(...validateDNS1123Label(name, path.child('name')));
      names.add(name);
    }
    const claimName = claim['resourceClaimName'];
    const templateName = claim['resourceClaimTemplateName'];
    if (isSet(claimName) && isSet(templateName)) {
      errs.push(invalid(path, podResourceClaimStruct(claim), 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    }
    if (!isSet(claimName) && !isSet(templateName)) {
      errs.push(invalid(path, podResourceClaimStruct(claim), 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    }
    if (isSet(claimName)) errs.push(...validateName(nameIsDNSSubdomain, str(claimName), path.child('resourceClaimName')));
    if (isSet(templateName)) errs.push(...validateName(nameIsDNSSubdomain, str(templateName), path.child('resourceClaimTemplateName')));
  });
  return errs;
}
