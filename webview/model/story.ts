/**
 * The Story tab's model: the story of the followed apply (src/engine/timeline/story), built
 * from the webview's copy of the trace, and laid out the way the view draws it: the steps of the
 * control plane in order, and each pod's steps gathered into one block at the place its first
 * step comes. What the view draws is this layout, so the UI tests read it (which step, which
 * pod, which state) through the panel's model layer.
 */
import type { TraceRecord } from '../../src/protocol/trace-records';
import { buildStory, type Story, type StoryStep } from '../../src/protocol/timeline';
import type { ApiRequestRecord } from '../../src/protocol/trace-records';
import type { RecordStore } from './record-store';
import { kindOf, type Kinds } from './rows';

export type StoryEntry = { readonly kind: 'step'; readonly index: number; readonly step: StoryStep } | { readonly kind: 'pod'; readonly pod: string; readonly steps: readonly { readonly index: number; readonly step: StoryStep }[] };

export function storyOf(root: ApiRequestRecord, store: RecordStore, kinds: Kinds): Story {
  return buildStory({ root, children: store.causes, get: (id) => store.get(id) as TraceRecord | undefined, kindOf: (g, r) => kindOf(kinds, g, r) });
}

/** The spine in order; each pod's steps in one block where its first step is. */
export function storyEntries(story: Story): StoryEntry[] {
  const out: StoryEntry[] = [];
  const blocks = new Map<string, { index: number; step: StoryStep }[]>();
  story.steps.forEach((step, index) => {
    if (!step.pod) {
      out.push({ kind: 'step', index, step });
      return;
    }
    let block = blocks.get(step.pod);
    if (!block) {
      blocks.set(step.pod, (block = []));
      out.push({ kind: 'pod', pod: step.pod, steps: block });
    }
    block.push({ index, step });
  });
  return out;
}

/** The etcd revision a step shows the cluster at: the newest revision its records wrote. */
export function stepRevision(step: StoryStep, store: RecordStore): number | undefined {
  let best: number | undefined;
  for (const id of step.records) {
    const r = store.get(id);
    if (r?.type === 'store.revision' && (best === undefined || r.revision > best)) best = r.revision;
  }
  return best;
}

/** "+4.484s" from the root. */
export function storyOffset(story: Story, time: number): string {
  return `+${((time - story.start) / 1000).toFixed(3)}s`;
}

/** How close in virtual time writes of one user must be to count as applied together (one manifest). */
const TOGETHER_MS = 1000;

/**
 * The user writes applied together with `r`: by the same user and program, each within a
 * second of the first, with no other user write between them (a manifest's documents, applied
 * in one go). `writes` are the user writes in id order.
 */
export function appliedTogether(writes: readonly ApiRequestRecord[], r: ApiRequestRecord): ApiRequestRecord[] {
  const i = writes.findIndex((w) => w.id === r.id);
  if (i < 0) return [r];
  const same = (a: ApiRequestRecord, b: ApiRequestRecord): boolean => a.user === b.user && a.userAgent === b.userAgent && Math.abs(a.time - b.time) <= TOGETHER_MS;
  let start = i;
  while (start > 0 && same(writes[start - 1]!, writes[start]!) && same(writes[start - 1]!, r)) start--;
  let end = i;
  while (end + 1 < writes.length && same(writes[end]!, writes[end + 1]!) && same(writes[start]!, writes[end + 1]!)) end++;
  return writes.slice(start, end + 1);
}

/** The story told by default: the first write of the latest apply. */
export function latestApply(writes: readonly ApiRequestRecord[]): ApiRequestRecord | undefined {
  const last = writes[writes.length - 1];
  return last && appliedTogether(writes, last)[0];
}
