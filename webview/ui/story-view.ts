/**
 * The Story tab: the story of one apply (the one the Story, the Flow and the lists' "this apply
 * only" follow), as a vertical sequence of steps: each with its virtual time, who acted, one
 * sentence, its state (done, retried, waiting, stopped) and the records it was told from; each
 * pod's steps in a block of their own. Arrow keys move between steps, Enter opens a step's
 * parts. Everything drawn is the model of webview/model/story.ts.
 */
import type { Story, StoryItem, StoryPhase, StoryStep, StepState } from '../../src/protocol/timeline';
import type { PanelRecord } from '../../src/protocol/panel';
import { isUserWrite } from '../model/flow';
import { formatTime, plural } from '../model/format';
import type { RecordStore } from '../model/record-store';
import type { Kinds } from '../model/rows';
import { SortedWindow } from '../model/sorted-window';
import { appliedTogether, latestApply, stepRevision, storyEntries, storyOf, storyOffset, type StoryEntry } from '../model/story';
import type { ApiRequestRecord } from '../../src/protocol/trace-records';
import { storyTitle } from '../../src/protocol/timeline';
import { kindOf } from '../model/rows';
import { dropdown, icon, type Dropdown } from './components';
import { h, replaceChildren } from './dom';

export interface StoryViewHost {
  readonly store: RecordStore;
  kinds(): Kinds;
  /** The followed apply (shared with the Flow and the lists); undefined: the latest. */
  root(): number | undefined;
  setRoot(id: number | undefined): void;
  /** A link to a record in the list that holds it. */
  link(id: number, text?: string): Node;
  showFlow(id: number): void;
  /** Replays the pictures at a revision. */
  replayAt(revision: number): void;
  showPod(namespace: string, name: string): void;
}

const PHASE_ICONS: Readonly<Record<StoryPhase, string>> = {
  request: 'cloud-upload',
  authentication: 'account',
  impersonation: 'person',
  authorization: 'shield',
  decode: 'json',
  'mutating-admission': 'edit',
  validation: 'checklist',
  'validating-admission': 'law',
  etcd: 'database',
  controller: 'gear',
  written: 'save',
  scheduler: 'target',
  kubelet: 'server-process',
  ready: 'pass-filled',
  endpoints: 'plug',
  available: 'rocket',
};

/** The API server's stages between the request and the etcd write: drawn as one band. */
const PIPELINE = new Set<StoryPhase>(['authentication', 'impersonation', 'authorization', 'decode', 'mutating-admission', 'validation', 'validating-admission']);

const STATE_WORDS: Readonly<Record<StepState, string>> = { done: 'done', retried: 'retried', waiting: 'waiting', stopped: 'stopped' };
const STATE_ICONS: Readonly<Record<StepState, string>> = { done: 'pass', retried: 'sync', waiting: 'clock', stopped: 'error' };
const OUTCOME_ICONS = { complete: 'pass-filled', 'in-progress': 'clock', stopped: 'error' } as const;

/** Applies offered in the picker (the newest). */
const PICKER_SIZE = 100;
const REBUILD_MS = 300;

/** "00:00:01.657 Deployment default/web, applied by kubernetes-admin": the object first, so it shows. */
function pickerLabel(r: ApiRequestRecord, names: { kindOf(g: string, r: string): string }): string {
  const title = storyTitle(r, names);
  const [user, verb] = [r.user, title.slice(r.user.length + 1, title.indexOf(' ', r.user.length + 1))];
  return `${formatTime(r.time)} ${title.slice(r.user.length + verb.length + 2)}, ${verb} by ${user}`;
}

export class StoryView {
  readonly element: HTMLElement;
  private readonly picker: Dropdown;
  private readonly status: HTMLElement;
  private readonly body: HTMLElement;
  private readonly writes = new SortedWindow<PanelRecord>();
  private dirty = true;
  private lastBuild = 0;
  private pending: ReturnType<typeof setTimeout> | undefined;
  private story: Story | undefined;
  private entries: StoryEntry[] = [];
  private rows: HTMLElement[] = [];
  private focusIndex = 0;
  /** Steps whose parts are open (by index), kept across rebuilds of the same story. */
  private readonly open = new Set<number>();
  private readonly closed = new Set<number>();
  private openRoot: number | undefined;

  constructor(private readonly host: StoryViewHost) {
    this.picker = dropdown('story-root', 'Apply', (v) => {
      host.setRoot(v ? Number(v) : undefined);
      this.dirty = true;
      this.update(true);
    });
    this.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.body = h('div', { class: 'story-body', tabindex: -1 });
    this.body.addEventListener('keydown', (e) => this.onKey(e));
    this.element = h('div', { class: 'view story' }, h('div', { class: 'toolbar' }, h('div', { class: 'filters' }, this.picker.element), this.status), this.body);
  }

  add(records: readonly PanelRecord[]): void {
    for (const r of records) if (isUserWrite(r)) this.writes.insert(r);
    if (this.writes.length > PICKER_SIZE) this.writes.dropFirst(this.writes.length - PICKER_SIZE);
    if (records.length > 0) this.dirty = true;
  }

  reset(): void {
    this.writes.clear();
    this.dirty = true;
  }

  /** The followed apply changed elsewhere (the Flow's picker): tell it next time. */
  invalidate(): void {
    this.dirty = true;
  }

  /** What is drawn: the story and its layout (for the UI tests). */
  model(): { story: Story | undefined; entries: StoryEntry[] } {
    return { story: this.story, entries: this.entries };
  }

  update(visible: boolean): void {
    if (!visible || !this.dirty) return;
    const now = performance.now();
    if (now - this.lastBuild < REBUILD_MS) {
      this.pending ??= setTimeout(() => {
        this.pending = undefined;
        this.update(true);
      }, REBUILD_MS);
      return;
    }
    this.dirty = false;
    this.lastBuild = now;
    this.renderPicker();
    const root = this.rootRecord();
    if (!root) {
      this.story = undefined;
      this.entries = [];
      replaceChildren(this.status, '');
      replaceChildren(this.body, h('div', { class: 'story-empty' }, h('p', {}, 'No apply to tell yet.'), h('p', { class: 'hint' }, 'Apply a manifest (KubeSim: Apply Current Manifest, kubectl apply, or kubesim apply): its story shows here, from the request through the API server and etcd to the controllers, the scheduler and the kubelets.')));
      return;
    }
    const story = storyOf(root, this.host.store, this.host.kinds());
    if (this.openRoot !== story.root) {
      this.open.clear();
      this.closed.clear();
      this.openRoot = story.root;
      this.focusIndex = 0;
    }
    this.story = story;
    this.entries = storyEntries(story);
    const flow = h('button', { class: 'record-link', type: 'button' }, 'the Flow');
    flow.addEventListener('click', () => this.host.showFlow(story.root));
    replaceChildren(this.status, `${plural(story.steps.length, 'step')} from ${plural(story.chain, 'record')} of its causal chain; ${plural(story.untold, 'record')} not told here (Events, reads, syncs that changed nothing, status bookkeeping): see `, flow);
    this.draw(story);
  }

  private userWrites(): ApiRequestRecord[] {
    return [...this.writes].filter((r): r is ApiRequestRecord => r.type === 'api.request');
  }

  private rootRecord(): ApiRequestRecord | undefined {
    const chosen = this.host.root();
    if (chosen === undefined) return latestApply(this.userWrites());
    const r = this.host.store.get(chosen);
    return r?.type === 'api.request' ? r : undefined;
  }

  private renderPicker(): void {
    const chosen = this.host.root();
    const kinds = this.host.kinds();
    const names = { kindOf: (g: string, r: string) => kindOf(kinds, g, r) };
    const choices = [{ value: '', label: 'The latest apply' }];
    const ids = new Set<number>();
    for (const r of [...this.writes].reverse()) {
      if (r.type !== 'api.request') continue;
      ids.add(r.id);
      choices.push({ value: String(r.id), label: pickerLabel(r, names) });
    }
    const extra = chosen !== undefined && !ids.has(chosen) ? this.host.store.get(chosen) : undefined;
    if (extra?.type === 'api.request') choices.splice(1, 0, { value: String(extra.id), label: pickerLabel(extra, names) });
    this.picker.setChoices(choices, chosen !== undefined ? String(chosen) : '');
  }

  private draw(story: Story): void {
    const root = this.host.store.get(story.root);
    const together = root?.type === 'api.request' ? appliedTogether(this.userWrites(), root).filter((w) => w.id !== story.root) : [];
    const kinds = this.host.kinds();
    const siblings =
      together.length > 0 &&
      h(
        'p',
        { class: 'story-siblings' },
        'Applied with it: ',
        ...together.flatMap((w, i) => {
          const b = h('button', { class: 'record-link', type: 'button' }, `${kindOf(kinds, w.group, w.resource)} ${w.namespace ? `${w.namespace}/` : ''}${w.name ?? ''}`);
          b.addEventListener('click', () => {
            this.host.setRoot(w.id);
            this.dirty = true;
            this.update(true);
          });
          return i === 0 ? [b] : [', ', b];
        }),
        together.length === 1 ? ' (its own story)' : ' (each its own story)',
      );
    const header = h(
      'header',
      { class: 'story-header' },
      h('h2', {}, story.title),
      siblings,
      h('p', { class: `story-outcome state-${story.state}`, role: 'note' }, icon(OUTCOME_ICONS[story.state]), ' ', story.outcome),
      story.pods.length > 0 && this.podStrip(story),
    );
    this.rows = [];
    const list = h('ol', { class: 'story-steps', role: 'list', 'aria-label': `Steps of: ${story.title}` });
    // Pods whose blocks follow one another sit side by side, one column each; the API server's
    // stages, one after the other, are one band of stages.
    let grid: HTMLElement | undefined;
    let band: { index: number; step: StoryStep }[] = [];
    const flush = (): void => {
      if (band.length > 0) list.append(this.pipelineBand(story, band));
      band = [];
    };
    for (const entry of this.entries) {
      if (entry.kind === 'step' && PIPELINE.has(entry.step.phase)) {
        grid = undefined;
        band.push(entry);
        continue;
      }
      flush();
      if (entry.kind === 'step') {
        grid = undefined;
        list.append(this.stepRow(story, entry.index, entry.step));
        continue;
      }
      if (!grid) {
        grid = h('div', { class: 'pod-grid' });
        list.append(h('li', { class: 'story-pods-row' }, grid));
      }
      grid.append(this.podBlock(story, entry.pod, entry.steps));
    }
    flush();
    this.focusIndex = Math.min(this.focusIndex, Math.max(0, this.rows.length - 1));
    this.rows[this.focusIndex]?.setAttribute('tabindex', '0');
    // A rebuild while the learner moves through the steps by keyboard keeps the focus on the
    // same step (the old rows leave the page with it), without scrolling the view.
    const hadFocus = this.body.contains(document.activeElement);
    replaceChildren(this.body, header, list);
    if (hadFocus) this.rows[this.focusIndex]?.focus({ preventScroll: true });
  }

  private podBlock(story: Story, pod: string, steps: readonly { index: number; step: StoryStep }[]): HTMLElement {
    const summary = story.pods.find((p) => p.pod === pod);
    const inner = h('ol', { class: 'story-steps nested', role: 'list', 'aria-label': `Pod ${pod}` });
    for (const { index, step } of steps) inner.append(this.stepRow(story, index, step));
    const [ns, name] = pod.split('/') as [string, string];
    const podLink = h('button', { class: 'record-link pod-name', type: 'button', title: `Details of Pod ${pod}` }, name);
    podLink.addEventListener('click', () => this.host.showPod(ns, name));
    const where = summary?.node ? ` on ${summary.node}` : '';
    const when = summary?.readyAt !== undefined ? ` · Ready at ${storyOffset(story, summary.readyAt)}` : summary?.deleted ? ' · removed' : summary ? ` · ${summary.state === 'stopped' ? 'stopped' : 'not Ready yet'}` : '';
    const state = summary?.deleted ? 'removed' : (summary?.state ?? 'waiting');
    return h('section', { class: `story-pod state-${state}`, 'data-pod': pod, 'aria-label': `Pod ${pod}${where}${when}` }, h('div', { class: 'pod-head' }, icon('package'), ' Pod ', podLink, `${where}${when}`), inner);
  }

  private podStrip(story: Story): HTMLElement {
    const strip = h('div', { class: 'story-pods', role: 'list', 'aria-label': 'Pods of this apply' });
    for (const p of story.pods) {
      const name = p.pod.slice(p.pod.indexOf('/') + 1);
      const state = p.deleted ? 'removed' : p.readyAt !== undefined ? `Ready ${storyOffset(story, p.readyAt)}` : p.state === 'stopped' ? 'stopped' : 'not Ready yet';
      const chip = h('button', { class: `pod-chip state-${p.deleted ? 'removed' : p.state}`, type: 'button', role: 'listitem', title: `Pod ${p.pod}${p.node ? ` on ${p.node}` : ''}: ${state}` }, icon(p.deleted ? 'trash' : STATE_ICONS[p.state]), ` ${name}`, h('span', { class: 'chip-detail' }, `${p.node ? ` ${p.node}` : ''} · ${state}`));
      chip.addEventListener('click', () => this.reveal(p.pod));
      strip.append(chip);
    }
    return strip;
  }

  /**
   * The stages as a row of chips, each a step of the list (focus or click one to read its
   * sentence); a stage that rejected the request is the one shown, else authorization's.
   */
  private pipelineBand(story: Story, steps: readonly { index: number; step: StoryStep }[]): HTMLElement {
    const sentence = h('p', { class: 'step-text pipeline-text', 'aria-live': 'polite' });
    const chips = h('div', { class: 'pipeline-chips', role: 'list', 'aria-label': 'API server stages' });
    const shown = steps.find((s) => s.step.state === 'stopped') ?? steps.find((s) => s.step.phase === 'authorization') ?? steps[0]!;
    const show = (s: { index: number; step: StoryStep }, chip: HTMLElement): void => {
      replaceChildren(sentence, h('strong', {}, `${s.step.title}: `), s.step.text, s.step.items?.length ? h('span', { class: 'hint' }, ` (${s.step.items.map((i) => i.text).join('; ')})`) : undefined);
      for (const c of chips.querySelectorAll('.pipeline-chip')) c.classList.toggle('shown', c === chip);
    };
    steps.forEach((s, i) => {
      if (i > 0) chips.append(h('span', { class: 'pipeline-arrow', 'aria-hidden': 'true' }, '›'));
      const chip = h('button', { class: `story-step pipeline-chip state-${s.step.state}`, type: 'button', role: 'listitem', 'data-step': s.index, 'data-phase': s.step.phase, tabindex: -1, title: s.step.text, 'aria-label': `${storyOffset(story, s.step.time)}, ${s.step.title}, ${STATE_WORDS[s.step.state]}: ${s.step.text}` }, icon(s.step.state === 'stopped' ? 'error' : PHASE_ICONS[s.step.phase]), ` ${s.step.title}`);
      chip.addEventListener('focus', () => {
        const at = this.rows.indexOf(chip);
        if (at >= 0) this.focusIndex = at;
        show(s, chip);
      });
      chip.addEventListener('click', () => show(s, chip));
      chip.addEventListener('mouseenter', () => show(s, chip));
      this.rows.push(chip);
      chips.append(chip);
      if (s === shown) queueMicrotask(() => show(s, chip));
    });
    const stopped = steps.some((s) => s.step.state === 'stopped');
    const record = steps[0]!.step.records[0];
    const head = h('div', { class: 'step-head' }, h('span', { class: 'step-title' }, 'API server'), h('span', { class: 'step-actor' }, 'kube-apiserver'), record !== undefined && h('span', { class: 'step-records inline' }, this.host.link(record, `#${record}`)));
    return h(
      'li',
      { class: `story-row story-pipeline state-${stopped ? 'stopped' : 'done'}` },
      h('div', { class: 'step-time' }, storyOffset(story, steps[0]!.step.time)),
      h('div', { class: 'step-marker' }, icon('server-environment')),
      h('div', { class: 'step-body' }, head, chips, sentence),
    );
  }

  private stepRow(story: Story, index: number, step: StoryStep): HTMLElement {
    const label = `${storyOffset(story, step.time)}, ${step.title}, ${STATE_WORDS[step.state]}: ${step.text}`;
    const row = h('li', { class: `story-row story-step state-${step.state} phase-${step.phase}`, 'data-step': index, 'data-phase': step.phase, tabindex: -1, 'aria-label': label });
    const marker = h('div', { class: 'step-marker', title: STATE_WORDS[step.state] }, icon(PHASE_ICONS[step.phase]));
    const head = h(
      'div',
      { class: 'step-head' },
      h('span', { class: 'step-title' }, step.title),
      h('span', { class: 'step-actor', title: 'Who acted' }, step.actor),
      step.state !== 'done' && h('span', { class: `step-state state-${step.state}` }, icon(STATE_ICONS[step.state]), ` ${STATE_WORDS[step.state]}`),
    );
    const items = step.items ?? [];
    // A step told from one record links it in its heading; one with parts folds them, with its records.
    if (items.length === 0 && step.records.length === 1) head.append(h('span', { class: 'step-records inline' }, this.host.link(step.records[0]!, `#${step.records[0]}`)));
    const body = h('div', { class: 'step-body' }, head, h('p', { class: 'step-text' }, step.text), (items.length > 0 || step.records.length > 1) && this.parts(story, index, step));
    // A step that took time (a pull, a rollout's wait) shows when it ended too.
    const end = Math.max(step.time, ...items.map((i) => i.time));
    const time = h('div', { class: 'step-time' }, storyOffset(story, step.time), end > step.time && h('div', { class: 'step-end', title: 'its last part' }, `…${storyOffset(story, end)}`));
    row.append(time, marker, body);
    row.addEventListener('focus', () => {
      const i = this.rows.indexOf(row);
      if (i >= 0) this.focusIndex = i;
    });
    this.rows.push(row);
    return row;
  }

  /** The step's parts and records, folded; a button to replay the cluster at the step. */
  private parts(story: Story, index: number, step: StoryStep): HTMLElement {
    const details = h('details', { class: 'step-parts' });
    // A step that could not happen shows its parts (the nodes' rejections, the failed pulls) unasked.
    if (this.open.has(index) || (step.state === 'stopped' && !this.closed.has(index))) details.setAttribute('open', '');
    details.addEventListener('toggle', () => {
      if ((details as HTMLDetailsElement).open) {
        this.open.add(index);
        this.closed.delete(index);
      } else {
        this.open.delete(index);
        this.closed.add(index);
      }
    });
    const items = step.items ?? [];
    details.append(h('summary', {}, items.length ? `${plural(items.length, 'part')}, ${plural(step.records.length, 'record')}` : plural(step.records.length, 'record')));
    if (items.length) {
      const list = h('ol', { class: 'step-items' });
      for (const it of items) list.append(this.item(story, it));
      details.append(list);
    }
    const links = h('div', { class: 'step-records' }, h('span', { class: 'hint' }, 'Records: '));
    step.records.forEach((id, i) => {
      if (i > 0) links.append(', ');
      links.append(this.host.link(id));
    });
    details.append(links);
    const revision = stepRevision(step, this.host.store);
    if (revision !== undefined) {
      const replay = h('button', { class: 'record-link', type: 'button' }, icon('history'), ` Show the cluster at revision ${revision}`);
      replay.addEventListener('click', () => this.host.replayAt(revision));
      details.append(h('div', { class: 'step-replay' }, replay));
    }
    return details;
  }

  private item(story: Story, it: StoryItem): HTMLElement {
    return h('li', { class: `state-${it.state}` }, h('span', { class: 'item-time' }, storyOffset(story, it.time)), ' ', icon(STATE_ICONS[it.state]), ' ', it.text);
  }

  /** Scrolls a pod's block into view and focuses its first step. */
  private reveal(pod: string): void {
    const block = this.body.querySelector<HTMLElement>(`.story-pod[data-pod="${CSS.escape(pod)}"]`);
    const first = block?.querySelector<HTMLElement>('.story-step');
    if (!first) return;
    block!.scrollIntoView({ block: 'start' });
    this.focusRow(this.rows.indexOf(first));
  }

  private focusRow(i: number): void {
    if (i < 0 || i >= this.rows.length) return;
    this.rows[this.focusIndex]?.setAttribute('tabindex', '-1');
    this.focusIndex = i;
    const row = this.rows[i]!;
    row.setAttribute('tabindex', '0');
    row.focus();
  }

  private onKey(e: KeyboardEvent): void {
    if (!(e.target instanceof HTMLElement) || !e.target.classList.contains('story-step')) return;
    if (e.target.classList.contains('pipeline-chip') && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
      e.preventDefault();
      this.focusRow(Math.max(0, Math.min(this.rows.length - 1, this.focusIndex + (e.key === 'ArrowRight' ? 1 : -1))));
      return;
    }
    const move = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : e.key === 'Home' ? -Infinity : e.key === 'End' ? Infinity : 0;
    if (move !== 0) {
      e.preventDefault();
      this.focusRow(Math.max(0, Math.min(this.rows.length - 1, this.focusIndex + move)));
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      const details = this.rows[this.focusIndex]?.querySelector('details');
      if (details) {
        e.preventDefault();
        (details as HTMLDetailsElement).open = !(details as HTMLDetailsElement).open;
      }
    }
  }
}
