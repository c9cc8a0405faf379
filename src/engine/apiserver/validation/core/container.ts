/**
 * Containers of every kind: regular, init (including restartPolicy: Always sidecars) and
 * ephemeral. Names are unique across kinds; probes and lifecycle hooks are only for regular
 * containers and sidecars.
 */
import { duplicate, forbidden, invalid, notFound, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { validateEnv, validateEnvFrom } from './env';
import { validateDNS1123Label } from './formats';
import { isSet, isZero, obj, objs, str, type Obj } from './json';
import { validateVolumeDevices, validateVolumeMounts } from './mounts';
import type { PodValidationOptions } from './options';
import { accumulateUniqueHostPorts, validateContainerPorts } from './ports';
import { validateLifecycle, validateLivenessProbe, validateReadinessProbe, validateStartupProbe } from './probes';
import { validatePullPolicy } from './pullpolicy';
import { validateContainerResourceRequirements } from './resources';
import { validateSecurityContext } from './security';
import type { VolumeMap } from './volumes';

/** What every container check needs from the pod spec around it. */
export interface ContainerContext {
  volumes: VolumeMap;
  podClaimNames: Set<string>;
  gracePeriod: number | undefined;
  podRestartPolicy: string;
  hostUsers: boolean;
  opts: PodValidationOptions;
}

const terminationMessagePolicies = ['File', 'FallbackToLogsOnError'];

function validateContainerCommon(ctr: Obj, ctx: ContainerContext, path: Path): ErrorList {
  const errs: ErrorList = [];
  const name = str(ctr['name']);
  if (name.length === 0) errs.push(required(path.child('name'), ''));
  else errs.push(...validateDNS1123Label(name, path.child('name')));
  // Whitespace-only images are tolerated in templates for backward compatibility.
  if (str(ctr['image']).length === 0) errs.push(required(path.child('image'), ''));
  const tmp = str(ctr['terminationMessagePolicy']);
  if (tmp === '') errs.push(required(path.child('terminationMessagePolicy'), ''));
  else if (!terminationMessagePolicies.includes(tmp)) errs.push(notSupported(path.child('terminationMessagePolicy'), tmp, terminationMessagePolicies));
  errs.push(...validateContainerPorts(ctr['ports'], path.child('ports')));
  errs.push(...validateEnv(ctr['env'], path.child('env')));
  errs.push(...validateEnvFrom(ctr['envFrom'], path.child('envFrom')));
  errs.push(...validateVolumeMounts(ctr, ctx.volumes, path.child('volumeMounts')));
  errs.push(...validateVolumeDevices(ctr, ctx.volumes, path.child('volumeDevices')));
  errs.push(...validatePullPolicy(ctr['imagePullPolicy'], path.child('imagePullPolicy')));
  errs.push(...validateContainerResourceRequirements(ctr['resources'], ctx.podClaimNames, path.child('resources'), ctx.opts.allowIndivisibleHugePagesValues));
  errs.push(...validateResizePolicy(ctr['resizePolicy'], path.child('resizePolicy'), ctx.podRestartPolicy));
  errs.push(...validateSecurityContext(ctr['securityContext'], path.child('securityContext'), ctx.hostUsers));
  return errs;
}

const resizeResources = ['cpu', 'memory'];
const resizePolicies = ['NotRequired', 'RestartContainer'];

function validateResizePolicy(policies: unknown, fldPath: Path, podRestartPolicy: string): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  objs(policies).forEach((p, i) => {
    const resource = str(p['resourceName']);
    const policy = str(p['restartPolicy']);
    if (seen.has(resource)) errs.push(duplicate(fldPath.index(i), resource));
    seen.add(resource);
    if (resource === '') errs.push(required(fldPath, ''));
    else if (!resizeResources.includes(resource)) errs.push(notSupported(fldPath, resource, resizeResources));
    if (policy === '') errs.push(required(fldPath, ''));
    else if (!resizePolicies.includes(policy)) errs.push(notSupported(fldPath, policy, resizePolicies));
    if (podRestartPolicy === 'Never' && policy !== 'NotRequired') {
      errs.push(invalid(fldPath, policy, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
    }
  });
  return errs;
}

/** Probes and hooks, for regular containers and sidecars. */
function validateProbesAndLifecycle(ctr: Obj, gracePeriod: number | undefined, path: Path): ErrorList {
  const errs: ErrorList = [];
  const lifecycle = obj(ctr['lifecycle']);
  if (lifecycle) errs.push(...validateLifecycle(lifecycle, gracePeriod, path.child('lifecycle')));
  errs.push(...validateLivenessProbe(ctr['livenessProbe'], gracePeriod, path.child('livenessProbe')));
  errs.push(...validateReadinessProbe(ctr['readinessProbe'], gracePeriod, path.child('readinessProbe')));
  errs.push(...validateStartupProbe(ctr['startupProbe'], gracePeriod, path.child('startupProbe')));
  return errs;
}

export function validateContainers(containers: unknown, ctx: ContainerContext, fldPath: Path): ErrorList {
  const list = objs(containers);
  if (list.length === 0) return [required(fldPath, '')];
  const errs: ErrorList = [];
  const names = new Set<string>();
  list.forEach((ctr, i) => {
    const path = fldPath.index(i);
    errs.push(...validateContainerCommon(ctr, ctx, path));
    const name = str(ctr['name']);
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    else names.add(name);
    errs.push(...validateProbesAndLifecycle(ctr, ctx.gracePeriod, path));
    if (isSet(ctr['restartPolicy'])) errs.push(forbidden(path.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...accumulateUniqueHostPorts(list, new Set(), fldPath));
  return errs;
}

export function validateInitContainers(containers: unknown, regular: unknown, ctx: ContainerContext, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const names = new Set(objs(regular).map((c) => str(c['name'])));
  objs(containers).forEach((ctr, i) => {
    const path = fldPath.index(i);
    errs.push(...validateContainerCommon(ctr, ctx, path));
    let restartAlways = false;
    if (isSet(ctr['restartPolicy'])) {
      const rp = str(ctr['restartPolicy']);
      if (rp !== 'Always') errs.push(notSupported(path.child('restartPolicy'), rp, ['Always']));
      restartAlways = rp === 'Always';
    }
    const name = str(ctr['name']);
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    else if (name.length > 0) names.add(name);
    // Init containers run one at a time, so only conflicts within one container matter.
    errs.push(...accumulateUniqueHostPorts([ctr], new Set(), fldPath));
    if (restartAlways) {
      errs.push(...validateProbesAndLifecycle(ctr, ctx.gracePeriod, path));
    } else {
      for (const field of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        if (isSet(ctr[field])) errs.push(forbidden(path.child(field), 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  });
  return errs;
}

/** Fields of an ephemeral container that must stay unset, in the Go struct's order. */
const ephemeralForbiddenFields = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'] as const;

export function validateEphemeralContainers(ephemeral: unknown, spec: Obj, ctx: ContainerContext, fldPath: Path): ErrorList {
  const list = objs(ephemeral);
  if (list.length === 0) return [];
  const errs: ErrorList = [];
  const otherNames = new Set([...objs(spec['containers']), ...objs(spec['initContainers'])].map((c) => str(c['name'])));
  const allNames = new Set(otherNames);
  list.forEach((ec, i) => {
    const path = fldPath.index(i);
    errs.push(...validateContainerCommon(ec, ctx, path));
    errs.push(...validateContainerOnlyForPod(ec, path));
    const name = str(ec['name']);
    if (allNames.has(name)) errs.push(duplicate(path.child('name'), name));
    else allNames.add(name);
    const target = str(ec['targetContainerName']);
    if (target !== '' && !otherNames.has(target)) errs.push(notFound(path.child('targetContainerName'), target));
    for (const field of ephemeralForbiddenFields) {
      if (!isZero(ec[field])) errs.push(forbidden(path.child(field), 'cannot be set for an Ephemeral Container'));
    }
    objs(ec['volumeMounts']).forEach((vm, j) => {
      const vmPath = path.child('volumeMounts').index(j);
      if (str(vm['subPath']) !== '') errs.push(forbidden(vmPath.child('subPath'), 'cannot be set for an Ephemeral Container'));
      if (str(vm['subPathExpr']) !== '') errs.push(forbidden(vmPath.child('subPathExpr'), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}

/** Pods (not templates) may not carry images with surrounding whitespace. */
export function validateContainerOnlyForPod(ctr: Obj, path: Path): ErrorList {
  const image = str(ctr['image']);
  return image.trim().length !== image.length ? [invalid(path.child('image'), image, 'must not have leading or trailing whitespace')] : [];
}
