/**
 * The runtime manager's SyncPod once the sandbox is up (pkg/kubelet/kuberuntime/
 * kuberuntime_manager.go, computePodActions): init containers one at a time, sidecars started in
 * order and kept up, then the regular containers; an exited container starts again per the pod's
 * restartPolicy, a running one whose image changed is killed to be restarted.
 */
import { isSidecar } from './api';
import { hasExited, isRunning } from './containers';
import { MESSAGE } from './events';
import { killForRestart, startContainer } from './kuberuntime-container';
import type { PodWorker } from './pod-workers';

/** computeInitContainerActions: 'done' once every init container completed and every sidecar started. */
export async function syncInitContainers(w: PodWorker): Promise<'done' | 'waiting' | 'failed'> {
  const restartPolicy = w.pod.spec?.restartPolicy ?? 'Always';
  for (const c of w.pod.spec?.initContainers ?? []) {
    const cur = w.records.get(c.name)?.current;
    if (isSidecar(c)) {
      if (!cur || hasExited(cur)) {
        await startContainer(w, c, 'sidecar');
        return 'waiting';
      }
      if (!cur.started) return 'waiting';
      continue;
    }
    if (!cur) {
      await startContainer(w, c, 'init');
      return 'waiting';
    }
    if (!hasExited(cur)) return 'waiting';
    if (cur.exit.code === 0) continue;
    if (restartPolicy === 'Never') return 'failed';
    await startContainer(w, c, 'init');
    return 'waiting';
  }
  return 'done';
}

export async function syncContainers(w: PodWorker): Promise<void> {
  const restartPolicy = w.pod.spec?.restartPolicy ?? 'Always';
  for (const c of w.pod.spec?.initContainers ?? []) {
    if (w.stopped()) return;
    if (isSidecar(c) && hasExited(w.records.get(c.name)?.current)) await startContainer(w, c, 'sidecar');
  }
  for (const c of w.pod.spec?.containers ?? []) {
    if (w.stopped()) return;
    const cur = w.records.get(c.name)?.current;
    if (cur && isRunning(cur)) {
      if (cur.spec.image !== c.image && !cur.stopping) killForRestart(w, cur, MESSAGE.definitionChanged(c.name), w.podGraceMs());
      continue;
    }
    if (cur && !hasExited(cur)) continue;
    if (cur && !shouldRestart(restartPolicy, cur.exit!.code)) continue;
    await startContainer(w, c, 'regular');
  }
}

/** Pods that are not restarted are done once every container exited for good. */
export function podFinished(w: PodWorker): boolean {
  const restartPolicy = w.pod.spec?.restartPolicy ?? 'Always';
  if (restartPolicy === 'Always') return false;
  return (w.pod.spec?.containers ?? []).every((c) => {
    const cur = w.records.get(c.name)?.current;
    return hasExited(cur) && !shouldRestart(restartPolicy, cur.exit.code);
  });
}

/** Whether an exited container is started again under the pod's restartPolicy. */
export function shouldRestart(restartPolicy: string, exitCode: number): boolean {
  if (restartPolicy === 'Always') return true;
  if (restartPolicy === 'OnFailure') return exitCode !== 0;
  return false;
}
