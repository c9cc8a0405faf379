/** Restricted checks on the user a container runs as: runAsNonRoot and runAsUser. */
import { boolAt, containerName, containers, containersPhrase, inUserNamespace, objectAt, securityContext } from '../pod';
import { ALLOWED, forbidden } from '../result';
import type { Check, CheckFn } from './types';

/** From 1.35 a pod in a user namespace (hostUsers: false) may run as root inside it. */
const exceptUserNamespace =
  (fn: CheckFn): CheckFn =>
  (pod) =>
    inUserNamespace(pod.spec) ? ALLOWED : fn(pod);

const runAsNonRoot1_0: CheckFn = ({ spec }) => {
  const setters: string[] = [];
  const podValue = boolAt(objectAt(spec, 'securityContext'), 'runAsNonRoot');
  if (podValue === false) setters.push('pod');
  const podRunAsNonRoot = podValue === true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const v = boolAt(securityContext(c), 'runAsNonRoot');
    if (v !== undefined) {
      if (!v) explicit.push(containerName(c));
    } else if (!podRunAsNonRoot) implicit.push(containerName(c));
  }
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  if (setters.length > 0) return forbidden('runAsNonRoot != true', `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicit.length > 0) return forbidden('runAsNonRoot != true', `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true`);
  return ALLOWED;
};

export const runAsNonRoot: Check = {
  id: 'runAsNonRoot',
  level: 'restricted',
  versions: [
    { minimumVersion: 0, check: runAsNonRoot1_0 },
    { minimumVersion: 35, check: exceptUserNamespace(runAsNonRoot1_0) },
  ],
};

const isRoot = (sc: unknown): boolean => typeof sc === 'object' && sc !== null && (sc as { runAsUser?: unknown }).runAsUser === 0;

const runAsUser1_23: CheckFn = ({ spec }) => {
  const setters: string[] = [];
  if (isRoot(objectAt(spec, 'securityContext'))) setters.push('pod');
  const bad = containers(spec).filter((c) => isRoot(securityContext(c))).map(containerName);
  if (bad.length > 0) setters.push(containersPhrase(bad));
  return setters.length > 0 ? forbidden('runAsUser=0', `${setters.join(' and ')} must not set runAsUser=0`) : ALLOWED;
};

export const runAsUser: Check = {
  id: 'runAsUser',
  level: 'restricted',
  versions: [
    { minimumVersion: 23, check: runAsUser1_23 },
    { minimumVersion: 35, check: exceptUserNamespace(runAsUser1_23) },
  ],
};
