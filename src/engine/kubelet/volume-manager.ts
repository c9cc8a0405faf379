/**
 * The volume manager's WaitForAttachAndMount (pkg/kubelet/volumemanager) for the volumes a pod
 * reads from ConfigMaps and Secrets: a sync goes on past the mount only once every such volume is
 * set up; a failing one is retried with the operation executor's exponential back-off, and the
 * pod worker's wait times out every 2 minutes with the unmounted volumes' event.
 */
import { MESSAGE, podRef, REASON } from './events';
import { unmountableVolumes } from './config-refs';
import type { PodWorker } from './pod-workers';

/** Volume SetUp retries back off from 500 ms to 2m2s; the pod worker gives up waiting after 2 minutes. */
const MOUNT_INITIAL_RETRY_MS = 500;
const MOUNT_MAX_RETRY_MS = 122_000;
const MOUNT_TIMEOUT_MS = 120_000;

/** The volume manager's WaitForAttachAndMount, for the volumes that read ConfigMaps and Secrets. */
export async function mountVolumes(w: PodWorker): Promise<void> {
  const failed = await unmountableVolumes(w.pod, (kind, name) => w.ctx.lookup(w.pod, kind, name));
  if (w.stopped()) return;
  if (failed.size === 0) {
    w.volumesReady = true;
    w.mountRetry = undefined;
    return;
  }
  const now = w.now();
  const retry = (w.mountRetry ??= { delayMs: 0, nextTimeoutAt: now + MOUNT_TIMEOUT_MS });
  for (const [volume, err] of failed) w.event(podRef(w.pod), 'Warning', REASON.failedMount, MESSAGE.setUpFailed(volume, err));
  if (now >= retry.nextTimeoutAt) {
    w.event(podRef(w.pod), 'Warning', REASON.failedMount, MESSAGE.unmountedVolumes([...failed.keys()].sort()));
    retry.nextTimeoutAt += MOUNT_TIMEOUT_MS;
  }
  if (retry.delayMs === 0) w.note('volume-mount-failed', [...failed.values()].join('; '));
  retry.delayMs = retry.delayMs === 0 ? MOUNT_INITIAL_RETRY_MS : Math.min(retry.delayMs * 2, MOUNT_MAX_RETRY_MS);
  w.wake('mount', now + retry.delayMs, retry.delayMs >= MOUNT_MAX_RETRY_MS);
}
