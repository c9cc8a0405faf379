/**
 * The "Show" check boxes of a record view: heartbeats, Events, reads (off by default: the views
 * open on the story, not the pulse) and "this apply only". One state for every view: a box
 * changed in one tab is changed in all.
 */
import type { Quiet } from '../model/quiet';
import { checkbox, type Checkbox } from './components';
import { h } from './dom';

export interface QuietHost {
  quiet(): Quiet;
  setQuiet(field: keyof Quiet, value: boolean): void;
  /** "Deployment default/web": the apply "this apply only" follows, for the box's tooltip. */
  followedApply(): string | undefined;
}

const BOXES: Readonly<Record<keyof Quiet, { label: string; title: string; shown: boolean }>> = {
  heartbeats: { label: 'Heartbeats', title: 'Show Lease renewals, the kubelets\u2019 Node status updates and the checks they trigger', shown: true },
  events: { label: 'Events', title: 'Show the writes of Events', shown: true },
  reads: { label: 'Reads', title: 'Show get, list and watch requests (the editor\u2019s and the panel\u2019s own reads among them)', shown: true },
  applyOnly: { label: 'This apply only', title: 'Show only what the followed apply caused (its causal closure)', shown: false },
};

export class QuietControls {
  readonly element: HTMLElement;
  private readonly boxes = new Map<keyof Quiet, Checkbox>();

  constructor(
    private readonly host: QuietHost,
    id: string,
    fields: readonly (keyof Quiet)[],
  ) {
    this.element = h('div', { class: 'quiet', role: 'group', 'aria-label': 'Show' }, h('span', { class: 'control-label' }, 'Show'));
    for (const field of fields) {
      const b = BOXES[field];
      // Heartbeats, Events and reads are boxes to show them; "this apply only" is a box to narrow.
      const box = checkbox(`${id}-quiet-${field}`, b.label, b.title, (checked) => host.setQuiet(field, b.shown ? !checked : checked));
      this.boxes.set(field, box);
      this.element.append(box.element);
    }
    this.sync();
  }

  /** Reflects the shared state (changed from another view). */
  sync(): void {
    const quiet = this.host.quiet();
    for (const [field, box] of this.boxes) {
      box.checked = BOXES[field].shown ? !quiet[field] : quiet[field];
      if (field === 'applyOnly') {
        const apply = this.host.followedApply();
        box.element.title = apply ? `Show only what ${apply} caused (its causal closure); pick the apply in the Story or the Flow` : 'No apply to follow yet';
      }
    }
  }
}
