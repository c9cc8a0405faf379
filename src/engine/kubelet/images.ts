/**
 * The node's image store and puller (containerd's image service as the kubelet's image manager
 * sees it). Pulls take virtual time and, as with the kubelet's default serializeImagePulls, run
 * one at a time: a pull queued behind another reports its own duration and the longer time
 * "including waiting". Which images exist is decided by configuration: images listed as missing
 * are not found in their registry, and every image under the registry host `example.invalid`
 * fails to resolve, as that name never does.
 */
import { goQuote } from '../api/gofmt';
import { parseImageRef, type ImageRef } from './image-ref';
import type { TimerGroup } from './timers';
import { own } from '../api/own';

export interface ImageSettings {
  /** Virtual pull time (ms) per image, keyed by the reference as written or normalized. */
  pullDurations?: Readonly<Record<string, number>>;
  /** Images that do not exist in their registry; pulls fail with NotFound. */
  missing?: readonly string[];
  /** Images on the node before any pod asks for them. */
  preloaded?: readonly string[];
  /** serializeImagePulls (default true): one pull at a time. */
  serializePulls?: boolean;
}

/** The pod sandbox image every node has. */
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10.1';
export const UNRESOLVABLE_DOMAIN = 'example.invalid';

/** A present image being pulled again (imagePullPolicy Always) only checks the manifest. */
const MANIFEST_CHECK_MS = 500;
/** How long a pull takes to fail. */
const FAILED_PULL_MS = 1000;
const BASE_PULL_MS = 500;
const BYTES_PER_SECOND = 25_000_000;
/** nodeStatusMaxImages. */
export const NODE_STATUS_MAX_IMAGES = 50;

export interface PullResult {
  readonly ok: boolean;
  readonly ref: ImageRef;
  /** The pull itself and the time including the wait in the queue (ms). */
  readonly pullMs: number;
  readonly totalMs: number;
  /** The CRI's error text when the pull failed. */
  readonly error?: string;
}

interface QueuedPull {
  readonly ref: ImageRef;
  readonly image: string;
  readonly queuedAt: number;
  readonly done: (result: PullResult) => void;
}

export class ImageService {
  private readonly present = new Map<string, ImageRef>();
  private readonly missing: Set<string>;
  private readonly queue: QueuedPull[] = [];
  private active = 0;

  constructor(
    private readonly settings: ImageSettings,
    private readonly timers: TimerGroup,
    private readonly now: () => number,
  ) {
    this.missing = new Set((settings.missing ?? []).flatMap((image) => [image, normalized(image)]));
    for (const image of [PAUSE_IMAGE, ...(settings.preloaded ?? [])]) {
      const ref = parseImageRef(image);
      if (ref.ok) this.present.set(ref.value.tagged, ref.value);
    }
  }

  /** The image as present on the node, if it is. */
  get(ref: ImageRef): ImageRef | undefined {
    return this.present.get(ref.tagged);
  }

  /** An image a container that was already running uses: it is on the node. */
  adopt(ref: ImageRef): void {
    this.present.set(ref.tagged, ref);
  }

  /** node.status.images: the largest images first, at most 50. */
  nodeImages(): { names: string[]; sizeBytes: number }[] {
    return [...this.present.values()]
      .sort((a, b) => b.sizeBytes - a.sizeBytes || a.tagged.localeCompare(b.tagged))
      .slice(0, NODE_STATUS_MAX_IMAGES)
      .map((r) => ({ names: r.tag ? [r.digested, r.tagged] : [r.digested], sizeBytes: r.sizeBytes }));
  }

  /** Queues a pull of `image` (as written in the pod spec); `done` hears how it went. */
  pull(image: string, ref: ImageRef, done: (result: PullResult) => void): void {
    this.queue.push({ ref, image, queuedAt: this.now(), done });
    this.startNext();
  }

  private startNext(): void {
    const parallel = this.settings.serializePulls === false;
    while (this.queue.length > 0 && (parallel || this.active === 0)) {
      const next = this.queue.shift()!;
      this.active++;
      const failure = this.failureOf(next.ref);
      const pullMs = failure ? FAILED_PULL_MS : this.pullDuration(next.image, next.ref);
      this.timers.set(
        pullMs,
        () => {
          this.active--;
          if (!failure) this.present.set(next.ref.tagged, next.ref);
          const result: PullResult = { ok: !failure, ref: next.ref, pullMs, totalMs: this.now() - next.queuedAt, ...(failure ? { error: failure } : {}) };
          next.done(result);
          this.startNext();
        },
        { label: `pull ${next.image}` },
      );
    }
  }

  private pullDuration(image: string, ref: ImageRef): number {
    const configured = own(this.settings.pullDurations, image) ?? own(this.settings.pullDurations, ref.tagged);
    if (configured !== undefined) return configured;
    if (this.present.has(ref.tagged)) return MANIFEST_CHECK_MS;
    return BASE_PULL_MS + Math.round((ref.sizeBytes / BYTES_PER_SECOND) * 1000);
  }

  /** containerd's error for an image that cannot be pulled, as the kubelet relays it. */
  private failureOf(ref: ImageRef): string | undefined {
    const name = goQuote(ref.tagged);
    if (ref.domain === UNRESOLVABLE_DOMAIN) {
      const path = ref.repository.slice(ref.domain.length + 1);
      const head = `https://${ref.domain}/v2/${path}/manifests/${ref.tag || ref.digested.slice(ref.digested.indexOf('@') + 1)}`;
      return `rpc error: code = Unknown desc = failed to pull and unpack image ${name}: failed to resolve reference ${name}: failed to do request: Head ${goQuote(head)}: dial tcp: lookup ${ref.domain}: no such host`;
    }
    if (this.missing.has(ref.tagged)) {
      return `rpc error: code = NotFound desc = failed to pull and unpack image ${name}: failed to resolve reference ${name}: ${ref.tagged}: not found`;
    }
    return undefined;
  }
}

function normalized(image: string): string {
  const ref = parseImageRef(image);
  return ref.ok ? ref.value.tagged : image;
}
