/**
 * The details of one object, the same view wherever an object is clicked (the map, the object
 * graph, the tree): what its stored view says at the revision shown (status, kubectl's STATUS
 * and READY, requests, owner), then what the API server answers for it at that revision
 * (conditions, events, the read-only YAML; "compacted" when etcd's history is gone), and a
 * pod's logs from its kubelet. Nothing is computed here that the store or the trace did not say.
 */
import type { NodeView, ObjectView, PodView, ViewKind } from '../../src/protocol/cluster-state';
import type { DetailsMessage, ObjectAtRevision } from '../../src/protocol/panel';
import { humanDuration } from '../../src/protocol/durations';
import { formatTimestamp } from '../model/format';
import { bytes, cores, type PodVerdicts } from '../model/verdicts';
import { podTone, TONE_LABELS } from '../model/tones';
import { icon, iconButton } from './components';
import { h, replaceChildren } from './dom';

export interface ObjectRef {
  readonly kind: ViewKind;
  readonly namespace?: string;
  readonly name: string;
}

export interface ObjectDetailsHost {
  /** The object's view at the revision shown (undefined: it did not exist then). */
  viewOf(ref: ObjectRef): ObjectView | undefined;
  /** The revision shown, or undefined when the panel follows the live cluster. */
  revision(): number | undefined;
  /** The virtual time of the revision shown (for event ages). */
  now(): number;
  requestDetails(ref: ObjectRef, revision: number | undefined): Promise<DetailsMessage>;
  /** The scheduler's verdicts for a pod at the revision shown, if it has an attempt record. */
  verdictsOf(pod: PodView): PodVerdicts | undefined;
  /** Called when the user closes the view. */
  closed(): void;
}

const KIND_ICONS: Readonly<Record<ViewKind, string>> = {
  Node: 'server',
  Pod: 'symbol-constant',
  Deployment: 'layers',
  ReplicaSet: 'copy',
  Service: 'plug',
  EndpointSlice: 'type-hierarchy-sub',
  StatefulSet: 'list-ordered',
  DaemonSet: 'server-process',
  Job: 'run',
  CronJob: 'watch',
};

export class ObjectDetails {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private ref: ObjectRef | undefined;
  private shownAt: string | undefined;
  private loads = 0;

  constructor(private readonly host: ObjectDetailsHost) {
    this.body = h('div', { class: 'object-details-body' });
    this.element = h('aside', { class: 'object-details', 'aria-label': 'Object details', hidden: true }, this.body);
  }

  get current(): ObjectRef | undefined {
    return this.ref;
  }

  open(ref: ObjectRef): void {
    this.ref = ref;
    this.shownAt = undefined;
    this.element.hidden = false;
    this.refresh();
  }

  close(): void {
    this.ref = undefined;
    this.element.hidden = true;
    this.host.closed();
  }

  /** Re-renders for the revision shown now (a scrub, or live changes); reads the API server again only when the revision changed. */
  refresh(): void {
    const ref = this.ref;
    if (!ref) return;
    const revision = this.host.revision();
    const view = this.host.viewOf(ref);
    const at = `${revision ?? 'live'}:${view?.rv ?? 'none'}`;
    if (at === this.shownAt) return;
    this.shownAt = at;
    const id = `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
    const close = iconButton('details-close', 'close', 'Close details', () => this.close());
    const remote = h('div', { class: 'object-details-remote', 'aria-busy': 'true' }, h('p', { class: 'hint' }, 'Reading the object, its events and logs through the API server…'));
    replaceChildren(
      this.body,
      h('header', { class: 'object-details-header' }, icon(KIND_ICONS[ref.kind]), h('h2', { title: id }, id), close),
      h('p', { class: 'hint' }, revision === undefined ? 'Live: the cluster as it is now.' : `Replay: as stored at revision ${revision}.`),
      view ? summary(view, this.host) : h('p', { class: 'banner compacted', role: 'note' }, revision === undefined ? 'The object does not exist now.' : `The object did not exist at revision ${revision}.`),
      remote,
    );
    const load = ++this.loads;
    void this.host.requestDetails(ref, revision).then((answer) => {
      if (load !== this.loads || !remote.isConnected) return;
      remote.removeAttribute('aria-busy');
      replaceChildren(remote, ...remoteSections(answer, this.host.now()));
    });
  }
}

function fields(rows: readonly [string, string | Node | undefined][]): HTMLElement {
  const dl = h('dl', { class: 'fields' });
  for (const [label, value] of rows) if (value !== undefined && value !== '') dl.append(h('dt', {}, label), h('dd', {}, value));
  return dl;
}

function summary(view: ObjectView, host: ObjectDetailsHost): HTMLElement {
  const common: [string, string | undefined][] = [
    ['Owner', view.owner ? `${view.owner.kind} ${view.owner.name}` : undefined],
    ['Labels', Object.entries(view.labels).map(([k, v]) => `${k}=${v}`).join(', ') || '<none>'],
    ['Resource version', String(view.rv)],
    ['Deleting', view.deleting ? 'yes: deletionTimestamp is set' : undefined],
  ];
  switch (view.kind) {
    case 'Pod':
      return h('div', {}, podSummary(view, host), fields(common));
    case 'Node':
      return h('div', {}, nodeSummary(view), fields(common));
    case 'Deployment':
      return fields([
        ['Replicas', `${view.replicas} desired, ${view.updatedReplicas} updated, ${view.readyReplicas} ready, ${view.availableReplicas} available`],
        ['Strategy', view.strategy],
        ['Revision', view.revision !== undefined ? String(view.revision) : undefined],
        ['Generation', `${view.generation} (observed ${view.observedGeneration})`],
        ['Conditions', view.conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ')],
        ...common,
      ]);
    case 'ReplicaSet':
      return fields([
        ['Replicas', `${view.replicas} desired, ${view.statusReplicas} current, ${view.readyReplicas} ready`],
        ['Revision', view.revision !== undefined ? String(view.revision) : undefined],
        ...common,
      ]);
    case 'Service':
      return fields([
        ['Type', view.type],
        ['Cluster IP', view.clusterIP],
        ['Selector', view.selector ? Object.entries(view.selector).map(([k, v]) => `${k}=${v}`).join(',') : '<none>'],
        ['Ports', view.ports.map((p) => `${p.name ? `${p.name} ` : ''}${p.port}→${p.targetPort ?? p.port}/${p.protocol}`).join(', ')],
        ...common,
      ]);
    case 'EndpointSlice':
      return fields([
        ['Service', view.service],
        ['Endpoints', view.endpoints.map((e) => `${e.addresses.join(',')}${e.ready === false ? ' (not ready)' : ''}${e.terminating ? ' (terminating)' : ''}`).join(', ') || '<none>'],
        ...common,
      ]);
    case 'StatefulSet':
      return fields([
        ['Replicas', `${view.desired} desired, ${view.current} current, ${view.updated} updated, ${view.ready} ready`],
        ['Revisions', view.updateRevision ? `current ${view.currentRevision ?? '?'}, update ${view.updateRevision}` : undefined],
        ['Generation', `${view.generation} (observed ${view.observedGeneration})`],
        ...common,
      ]);
    case 'DaemonSet':
      return fields([
        ['Pods', `${view.desired} desired, ${view.current} current, ${view.updated} up-to-date, ${view.ready} ready${view.failed ? `, ${view.failed} misscheduled` : ''}`],
        ['Generation', `${view.generation} (observed ${view.observedGeneration})`],
        ...common,
      ]);
    case 'Job':
      return fields([
        ['Status', view.status],
        ['Completions', view.summary],
        ['Pods', `${view.current} active, ${view.ready} ready, ${view.updated} succeeded, ${view.failed} failed`],
        ['Conditions', view.conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ') || '<none>'],
        ...common,
      ]);
    case 'CronJob':
      return fields([
        ['Schedule', view.summary],
        ['Status', view.status],
        ['Active Jobs', String(view.current)],
        ['Last schedule', view.lastSchedule ?? '<none>'],
        ...common,
      ]);
  }
}

function podSummary(p: PodView, host: ObjectDetailsHost): HTMLElement {
  const verdicts = host.verdictsOf(p);
  return h(
    'div',
    {},
    fields([
      ['Status', `${p.status} (${TONE_LABELS[podTone(p)]} on the map)`],
      ['Ready', p.ready],
      ['Restarts', String(p.restarts)],
      ['Node', p.node ?? 'not bound to a node (in the scheduling queue)'],
      ['Nominated node', p.nominatedNode],
      ['IP', p.ip],
      ['Requests', `cpu ${cores(p.requests.milliCPU)}, memory ${bytes(p.requests.memory)}`],
      ['Phase', p.phase],
    ]),
    verdicts && h('p', { class: verdicts.attempt.outcome === 'scheduled' ? 'hint' : 'banner failed', role: 'note' }, h('strong', {}, 'Scheduler: '), verdicts.headline),
  );
}

function nodeSummary(n: NodeView): HTMLElement {
  return fields([
    ['Status', n.status],
    ['Ready', n.ready ? `${n.ready.status}${n.ready.reason ? ` (${n.ready.reason})` : ''}${n.ready.message ? `: ${n.ready.message}` : ''}` : 'no Ready condition yet'],
    ['Zone', n.zone],
    ['Roles', n.roles.join(', ') || '<none>'],
    ['Taints', n.taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ') || '<none>'],
    ['Allocatable', `cpu ${cores(n.allocatable.milliCPU)}, memory ${bytes(n.allocatable.memory)}, pods ${n.allocatable.pods}`],
  ]);
}

function objectProblem(o: ObjectAtRevision): Node | undefined {
  if (o.state === 'compacted') return h('p', { class: 'banner compacted', role: 'note' }, h('strong', {}, `Revision ${o.revision} is compacted. `), `The API server answered 410 Gone: ${o.message}`);
  if (o.state === 'error') return h('p', { class: 'banner failed', role: 'note' }, `Reading the object failed: ${o.code}: ${o.message}`);
  if (o.state === 'absent') return h('p', { class: 'hint' }, 'The API server has no such object at that revision.');
  return undefined;
}

function remoteSections(d: DetailsMessage, now: number): Node[] {
  const out: Node[] = [];
  const problem = objectProblem(d.object);
  if (problem) out.push(problem);
  if (d.conditions) {
    out.push(h('h3', {}, 'Conditions'));
    out.push(
      d.conditions.length === 0
        ? h('p', { class: 'hint' }, '<none>')
        : h(
            'ul',
            { class: 'detail-items conditions' },
            ...d.conditions.map((c) =>
              h('li', { class: c.status === 'True' ? '' : 'off' }, h('strong', {}, `${c.type} ${c.status}`), c.reason ? h('span', { class: 'hint' }, ` ${c.reason}`) : undefined, c.message ? h('div', {}, c.message) : undefined),
            ),
          ),
    );
  }
  out.push(h('h3', {}, 'Events'));
  if (d.events.state !== 'found') {
    out.push(h('p', { class: d.events.state === 'compacted' ? 'banner compacted' : 'banner failed', role: 'note' }, d.events.state === 'compacted' ? `Events at this revision are compacted: ${d.events.message}` : `Listing events failed: ${d.events.message}`));
  } else if (d.events.events.length === 0) {
    out.push(h('p', { class: 'hint' }, '<none>'));
  } else {
    out.push(
      h(
        'ul',
        { class: 'detail-items events' },
        ...d.events.events.map((e) =>
          h(
            'li',
            { class: e.type === 'Warning' ? 'warning' : '' },
            h('strong', {}, `${e.type} ${e.reason}`),
            h('span', { class: 'hint', title: formatTimestamp(e.time) }, ` ${humanDuration(Math.max(0, now - e.time))} ago${e.count > 1 ? ` (x${e.count})` : ''} · ${e.from}`),
            h('div', {}, e.message),
          ),
        ),
      ),
    );
  }
  if (d.logs) {
    out.push(h('h3', {}, 'Logs (now: logs have no revisions)'));
    for (const l of d.logs) {
      out.push(h('h4', {}, l.container ? `container ${l.container}` : 'logs'));
      out.push(l.error !== undefined ? h('p', { class: 'hint' }, l.error) : h('pre', { class: 'code logs', tabindex: 0 }, l.text || '(no output yet)'));
    }
  }
  if (d.object.state === 'found') {
    out.push(h('details', { class: 'yaml' }, h('summary', {}, `YAML at revision ${d.object.revision} (read-only; metadata.managedFields left out)`), h('pre', { class: 'code', tabindex: 0 }, d.object.yaml)));
  }
  return out;
}
