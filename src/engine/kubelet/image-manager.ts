/**
 * The image manager's EnsureImageExists (pkg/kubelet/images/image_manager.go): the image
 * reference defaulted, the pull policy applied to what the node has, the pull behind its
 * back-off, and the events and waiting reasons (InvalidImageName, ErrImageNeverPull,
 * ImagePullBackOff, ErrImagePull) kubectl describe shows.
 */
import { goQuote } from '../api/gofmt';
import type { Container } from './api';
import { MAX_BACKOFF_MS } from './backoff';
import { WAITING, type ContainerRecord } from './containers';
import { MESSAGE, REASON, type containerRef } from './events';
import { parseImageRef, type ImageRef } from './image-ref';
import type { PullResult } from './images';
import type { PodWorker } from './pod-workers';

/** The image manager's EnsureImageExists: the image, or undefined with the reason recorded. */
export async function ensureImage(w: PodWorker, spec: Container, record: ContainerRecord, ref: ReturnType<typeof containerRef>): Promise<ImageRef | undefined> {
  const image = spec.image ?? '';
  const reference = parseImageRef(image);
  if (!reference.ok) {
    const message = `Failed to apply default image tag ${goQuote(image)}: ${reference.error}`;
    w.setWaiting(record, WAITING.invalidImageName, message, () => {
      w.event(ref, 'Warning', REASON.inspectFailed, message);
      w.event(ref, 'Warning', REASON.failed, MESSAGE.error(WAITING.invalidImageName));
    });
    return undefined;
  }
  const parsed = reference.value;
  const policy = spec.imagePullPolicy ?? (parsed.tag === 'latest' ? 'Always' : 'IfNotPresent');
  const present = w.ctx.images.get(parsed);
  if (policy === 'Never' || (policy === 'IfNotPresent' && present)) {
    if (present) {
      w.event(ref, 'Normal', REASON.pulled, MESSAGE.alreadyPresent(image));
      return present;
    }
    const message = MESSAGE.neverPull(image);
    w.setWaiting(record, WAITING.errImageNeverPull, message, () => {
      w.event(ref, 'Warning', REASON.errImageNeverPull, message);
      w.event(ref, 'Warning', REASON.failed, MESSAGE.error(WAITING.errImageNeverPull));
    });
    return undefined;
  }
  const key = `${w.uid}_${image}`;
  if (w.ctx.imageBackoff.isInBackOffSinceUpdate(key, w.now())) {
    const message = `${MESSAGE.pullBackOff(image)}: ${WAITING.errImagePull}: ${w.lastPullError.get(key) ?? ''}`;
    w.setWaiting(record, WAITING.imagePullBackOff, message, () => {
      w.event(ref, 'Normal', REASON.backOff, MESSAGE.pullBackOff(image));
      w.event(ref, 'Warning', REASON.failed, MESSAGE.error(WAITING.imagePullBackOff));
      w.note('image-back-off', `retry in ${w.ctx.imageBackoff.get(key) / 1000}s`, spec.name);
    });
    const end = w.ctx.imageBackoff.endSinceUpdate(key) ?? w.now();
    w.wake(`pull ${spec.name}`, end, w.ctx.imageBackoff.get(key) >= MAX_BACKOFF_MS);
    return undefined;
  }
  w.event(ref, 'Normal', REASON.pulling, MESSAGE.pulling(image));
  w.note('image-pulling', image, spec.name);
  const result = await new Promise<PullResult>((resolve) => w.ctx.images.pull(image, parsed, resolve));
  if (w.removed) return undefined;
  if (!result.ok) {
    const error = result.error ?? '';
    w.event(ref, 'Warning', REASON.failed, MESSAGE.failedToPull(image, error));
    w.ctx.imageBackoff.next(key, w.now(), w.now());
    w.lastPullError.set(key, error);
    record.waiting = { reason: WAITING.errImagePull, message: error };
    w.event(ref, 'Warning', REASON.failed, MESSAGE.error(WAITING.errImagePull));
    w.note('image-pull-failed', error, spec.name);
    w.followUp();
    return undefined;
  }
  w.event(ref, 'Normal', REASON.pulled, MESSAGE.pulled(image, result.pullMs, result.totalMs, result.ref.sizeBytes));
  w.note('image-pulled', `${image} in ${result.pullMs}ms`, spec.name);
  return result.ref;
}
