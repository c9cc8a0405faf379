/**
 * Builds the story of one request from the trace's cause links only (docs/architecture.md, invariant 2):
 * the request's causal closure, walked in the order it was recorded, each record either told as
 * (part of) a step or counted as untold (Events, reads, heartbeats, syncs that changed nothing,
 * status bookkeeping). Nothing is inferred: a step is there because its records are, and a
 * step that did not happen (no node fits, the image cannot be pulled) is told from the record
 * that says so, and is where that part of the story stops.
 */
import { rejectionText } from '../../scheduler/insufficient';
import type { BindingRecord, SchedulingAttemptRecord } from '../../scheduler/record';
import type { ApiRequestRecord } from '../../trace/apiserver';
import type { KubeletAction, KubeletRecord } from '../../trace/kubelet';
import type { ReconcileRecord } from '../../trace/reconcile';
import type { RevisionRecord } from '../../trace/revision';
import type { TraceRecord } from '../../trace/types';
import { causalClosure, type CauseIndex } from '../closure';
import { retriedRecords } from '../retries';
import { isEvent, isHeartbeat, isRead, type Lookup } from '../noise';
import { objectName, pipelineSteps, status, storyTitle, type Names } from './request';
import type { PodSummary, StepState, Story, StoryItem, StoryPhase, StoryState, StoryStep } from './types';
import { controllerTitle, counted, kubeletPhrase, prose, seconds } from './words';

export interface StoryInput extends Names {
  readonly root: ApiRequestRecord;
  readonly children: CauseIndex;
  readonly get: Lookup;
}

/** A step while it is being told: later records add to it. */
interface Draft {
  phase: StoryPhase;
  title: string;
  time: number;
  actor: string;
  text: string;
  state: StepState;
  records: number[];
  pod?: string;
  items?: StoryItem[];
  /** Steps that grow: "scheduler/<pod>", "kubelet-start/<pod>", "written/<reconcile>/<resource>/<op>". */
  key?: string;
  /** First record id, for the order of steps. */
  order: number;
}

const ENDPOINT_CONTROLLERS = new Set(['endpointslice', 'endpoint']);
const KUBELET_STOPS = new Set<KubeletAction>(['pod-terminating', 'container-killing', 'pod-deleted']);
const KUBELET_FAILURES = new Set<KubeletAction>(['pod-rejected', 'image-pull-failed', 'image-back-off', 'container-config-error', 'container-back-off', 'volume-mount-failed', 'sandbox-failed', 'behavior-invalid']);
const KUBELET_WAITING = new Set<KubeletAction>(['pod-admitted', 'pod-adopted', 'sandbox-created', 'image-pulling', 'image-pulled', 'container-created']);

const isPodResource = (r: { group: string; resource: string }): boolean => r.group === '' && r.resource === 'pods';
const isConflict = (text: string | undefined): boolean => text !== undefined && /Conflict|the object has been modified/.test(text);

class StoryBuilder {
  private readonly steps: Draft[] = [];
  private readonly open = new Map<string, Draft>();
  /** The step each acting reconcile became, for the writes its requests made. */
  private readonly byReconcile = new Map<number, Draft>();
  private readonly told = new Set<number>();
  private readonly pods = new Map<string, { node?: string; readyAt?: number; deleted: boolean; order: number }>();
  /** Each kubelet step's actions, for its sentence. */
  private readonly actions = new Map<Draft, KubeletRecord[]>();
  /** The chain's failures that a later sync got past (timeline/retries.ts). */
  private retried = new Set<number>();

  constructor(private readonly input: StoryInput) {}

  build(): Story {
    const { root } = this.input;
    const chain = causalClosure(root, this.input.children);
    this.retried = retriedRecords(chain);
    const stored = chain.find((r): r is RevisionRecord => r.type === 'store.revision' && r.cause === root.id);
    for (const { items, records, ...s } of pipelineSteps(root, stored, this.input)) this.add({ ...s, records: [...records], ...(items ? { items: [...items] } : {}), order: root.id });
    if (root.code < 400) for (const r of chain) if (r.id !== root.id && !this.told.has(r.id)) this.tell(r);
    const steps: StoryStep[] = this.steps.sort((a, b) => a.order - b.order).map(({ key: _k, order: _o, ...s }) => s);
    const pods = this.podSummaries(steps);
    const { state, outcome } = this.outcome(steps, pods);
    return { root: root.id, title: storyTitle(root, this.input), start: root.time, steps, pods, state, outcome, untold: chain.length - this.told.size, chain: chain.length };
  }

  // ---- bookkeeping ---------------------------------------------------------------------------

  private add(d: Draft): Draft {
    this.steps.push(d);
    for (const id of d.records) this.told.add(id);
    if (d.key) this.open.set(d.key, d);
    return d;
  }

  private attach(d: Draft, ...ids: number[]): void {
    for (const id of ids) {
      if (!d.records.includes(id)) d.records.push(id);
      this.told.add(id);
    }
    d.records.sort((a, b) => a - b);
  }

  private pod(key: string, order: number): { node?: string; readyAt?: number; deleted: boolean; order: number } {
    let p = this.pods.get(key);
    if (!p) this.pods.set(key, (p = { deleted: false, order }));
    return p;
  }

  private request(id: number): ApiRequestRecord | undefined {
    const r = this.input.get(id);
    return r?.type === 'api.request' ? r : undefined;
  }

  private kind(r: { group: string; resource: string }): string {
    return this.input.kindOf(r.group, r.resource);
  }

  // ---- telling each record -------------------------------------------------------------------

  private tell(r: TraceRecord): void {
    switch (r.type) {
      case 'controller.reconcile':
        return this.reconcile(r);
      case 'store.revision':
        return this.revision(r);
      case 'scheduler.attempt':
        return this.attempt(r);
      case 'scheduler.binding':
        return this.binding(r);
      case 'kubelet.action':
        return this.kubelet(r);
      default:
        // Requests are told with the reconcile that sent them or the write they made; Events,
        // reads and compactions are not part of the story.
        return;
    }
  }

  /** The pod an endpoints loop reacted to, when a pod's write woke it up. */
  private podOfCause(r: ReconcileRecord): string | undefined {
    const cause = r.cause === undefined ? undefined : this.input.get(r.cause);
    return cause?.type === 'store.revision' && isPodResource(cause) ? objectName(cause) : undefined;
  }

  private reconcile(r: ReconcileRecord): void {
    if (isHeartbeat(r, this.input.get)) return;
    const requests = r.requests.map((id) => this.request(id)).filter((q): q is ApiRequestRecord => q !== undefined && !isEvent(q) && !isRead(q));
    const acting = requests.filter((q) => q.subresource !== 'status' || q.code >= 400);
    if (r.outcome !== 'error' && acting.length === 0) return;
    const endpoints = ENDPOINT_CONTROLLERS.has(r.controller);
    const pod = endpoints ? this.podOfCause(r) : undefined;
    const state = this.syncState(r);
    const did = this.did(acting);
    const because = this.because(r);
    const failure = this.failure(r, requests, state);
    const observed: StoryItem[] = r.observed ? [{ time: r.time, text: `saw ${r.observed}`, state: 'done', records: [r.id] }] : [];
    const requestItems: StoryItem[] = requests.map((q) => ({ time: q.time, text: `${q.verb} ${this.kind(q)}${q.subresource ? `/${q.subresource}` : ''} ${objectName(q)} → ${q.code}${q.code >= 400 ? ` ${q.reason ?? ''}` : ''}`.trimEnd(), state: q.code >= 400 ? (state === 'stopped' ? 'stopped' : 'retried') : 'done', records: [q.id] }));
    // Endpoints loops woken by the same pod write tell one step: the routing for that pod.
    const joinKey = endpoints && r.cause !== undefined ? `endpoints/${r.cause}` : undefined;
    const joined = joinKey ? this.open.get(joinKey) : undefined;
    const ids = [r.id, ...requests.map((q) => q.id)];
    const createsSlice = acting.some((q) => q.verb === 'create' && q.resource === 'endpointslices');
    if (joined) {
      if (createsSlice) joined.title = 'EndpointSlice created';
      joined.text = `${joined.text.replace(/\.$/, '')}; the ${controllerTitle(r.controller)} ${did}.`;
      joined.actor = `${joined.actor}, ${r.component}`;
      joined.items!.push(...observed, ...requestItems);
      this.attach(joined, ...ids);
      this.byReconcile.set(r.id, joined);
      return;
    }
    const title = endpoints ? (createsSlice ? 'EndpointSlice created' : 'EndpointSlice updated') : controllerTitle(r.controller);
    const d = this.add({
      phase: endpoints ? 'endpoints' : 'controller',
      title,
      time: r.time,
      actor: r.component,
      text: `${because}, the ${controllerTitle(r.controller)} ${did}${failure}.`,
      state,
      records: ids,
      ...(pod ? { pod } : {}),
      items: [...observed, ...requestItems],
      order: r.id,
      ...(joinKey ? { key: joinKey } : {}),
    });
    this.byReconcile.set(r.id, d);
  }

  /** A failed sync is retried when a later sync of the same key in this chain succeeded. */
  private syncState(r: ReconcileRecord): StepState {
    if (r.outcome !== 'error') return 'done';
    if (this.retried.has(r.id)) return 'retried';
    if (r.dropped) return 'stopped';
    return isConflict(r.error) ? 'waiting' : 'stopped';
  }

  private because(r: ReconcileRecord): string {
    const cause = r.cause === undefined ? undefined : this.input.get(r.cause);
    if (cause?.type === 'store.revision') {
      const what = cause.operation === 'create' ? 'created' : cause.operation === 'delete' ? 'deleted' : 'updated';
      return `When ${this.kind(cause)} ${cause.name} was ${what} (rev ${cause.revision})`;
    }
    switch (r.trigger) {
      case 'retry':
        return 'Retrying after an error';
      case 'requeue':
        return 'When its requeue came due';
      case 'resync':
        return 'On its periodic resync';
      default:
        return `Syncing ${r.key}`;
    }
  }

  /** What an update's revision says of spec.replicas: "from 3 to 2". */
  private scaled(q: ApiRequestRecord): string | undefined {
    const stored = [...(this.input.children.get(q.id) ?? [])].find((r): r is RevisionRecord => r.type === 'store.revision');
    const m = stored && /(?:^|, )spec\.replicas: (\d+) → (\d+)/.exec(stored.change);
    return m ? `from ${m[1]} to ${m[2]}` : undefined;
  }

  /** "created ReplicaSet web-7fdd5554cc", "created 3 Pods", "scaled ReplicaSet web-x from 3 to 2". */
  private did(requests: readonly ApiRequestRecord[]): string {
    const groups = new Map<string, ApiRequestRecord[]>();
    const scaled: string[] = [];
    for (const q of requests) {
      if (q.code >= 400) continue;
      const to = q.verb === 'update' || q.verb === 'patch' ? this.scaled(q) : undefined;
      if (to) {
        scaled.push(`scaled ${this.kind(q)} ${q.name ?? ''} ${to}`);
        continue;
      }
      const verb = q.verb === 'create' ? 'created' : q.verb === 'delete' ? 'deleted' : 'updated';
      const k = `${verb} ${this.kind(q)}${q.subresource ? `/${q.subresource}` : ''}`;
      const list = groups.get(k);
      if (list) list.push(q);
      else groups.set(k, [q]);
    }
    const parts = [...groups].map(([k, list]) => {
      const [verb, kind] = [k.slice(0, k.indexOf(' ')), k.slice(k.indexOf(' ') + 1)];
      return list.length === 1 ? `${verb} ${kind} ${list[0]!.name ?? ''}`.trimEnd() : `${verb} ${counted(list.length, kind)}`;
    });
    parts.push(...scaled);
    return parts.length ? prose(parts) : 'sent nothing that succeeded';
  }

  private failure(r: ReconcileRecord, requests: readonly ApiRequestRecord[], state: StepState): string {
    if (r.outcome !== 'error') return '';
    const failed = requests.find((q) => q.code >= 400);
    const what = failed ? `its ${failed.verb} of ${this.kind(failed)} ${failed.name ?? ''}${failed.subresource ? `/${failed.subresource}` : ''} got ${failed.code} ${failed.reason ?? ''}` : `it failed: ${r.error ?? ''}`;
    if (state === 'retried') return `; ${what.replace(/\s+$/, '')}${isConflict(r.error) ? ' (the object had changed since it read it)' : ''}, and a later sync succeeded`;
    if (state === 'waiting') return `; ${what.replace(/\s+$/, '')}, to be retried in ${seconds(r.backoffMs ?? 0)}`;
    return `; ${what.replace(/\s+$/, '')}${r.dropped ? `, and it gave up after ${r.retries ?? 0} retries` : `: ${r.error ?? ''}`}`;
  }

  private revision(r: RevisionRecord): void {
    if (isEvent(r) || isHeartbeat(r, this.input.get)) return;
    const request = r.cause === undefined ? undefined : this.request(r.cause);
    const owner = request?.cause === undefined ? undefined : this.byReconcile.get(request.cause);
    const ids = request ? [request.id, r.id] : [r.id];
    if (isPodResource(r)) return this.podRevision(r, request, owner, ids);
    const kind = this.kind(r);
    if (request?.subresource === 'status') {
      if (kind === 'Deployment' && r.conditions?.Available === 'True') {
        this.add({ phase: 'available', title: 'Deployment available', time: r.time, actor: r.actor ? r.actor.slice(r.actor.lastIndexOf(':') + 1) : 'etcd', text: `Deployment ${r.name} is Available: enough of its pods are Ready (rev ${r.revision}).`, state: 'done', records: ids, order: r.id });
      }
      return;
    }
    if (owner?.phase === 'endpoints') {
      owner.items!.push({ time: r.time, text: `rev ${r.revision}: ${r.operation} ${kind} ${r.name}${r.operation === 'update' ? `: ${r.change}` : ''}`, state: 'done', records: [r.id] });
      this.attach(owner, ...ids);
      return;
    }
    this.written(r, kind, ids, owner);
  }

  /** A controller's write of an object: "ReplicaSet web-7fdd5554cc created (rev 192)", grouped per sync. */
  private written(r: RevisionRecord, kind: string, ids: number[], owner: Draft | undefined, pod?: string): void {
    const request = r.cause === undefined ? undefined : this.request(r.cause);
    // A delete with a grace period writes the object once more, marked for deletion.
    const verb = r.operation === 'create' ? 'created' : r.operation === 'delete' ? 'deleted' : request?.verb === 'delete' ? 'marked for deletion' : 'updated';
    const key = `written/${owner?.order ?? r.cause ?? r.id}/${kind}/${r.operation}`;
    const change = verb === 'updated' ? `: ${r.change}` : '';
    const item: StoryItem = { time: r.time, text: `${kind} ${objectName(r)} ${verb} at rev ${r.revision}${change}`, state: 'done', records: ids };
    const open = this.open.get(key);
    if (open) {
      open.items!.push(item);
      const n = open.items!.length;
      open.title = `${counted(n, kind)} ${verb === 'created' ? 'written' : verb}`;
      open.text = `etcd stored ${counted(n, kind)} (${verb}): revisions ${open.items!.map((i) => /rev (\d+)/.exec(i.text)?.[1]).join(', ')}.`;
      this.attach(open, ...ids);
      return;
    }
    this.add({
      phase: 'written',
      title: `${kind} ${verb === 'created' ? 'written' : verb}`,
      time: r.time,
      actor: 'etcd',
      text: `etcd stored ${kind} ${objectName(r)} (${verb}) at revision ${r.revision}${change}.`,
      state: 'done',
      records: ids,
      items: [item],
      key,
      order: r.id,
      ...(pod ? { pod } : {}),
    });
  }

  private podRevision(r: RevisionRecord, request: ApiRequestRecord | undefined, owner: Draft | undefined, ids: number[]): void {
    const pod = objectName(r);
    const p = this.pod(pod, r.id);
    if (r.operation === 'delete') {
      p.deleted = true;
      this.add({ phase: 'written', title: 'Pod deleted', time: r.time, actor: 'etcd', text: `etcd removed Pod ${pod} at revision ${r.revision}: it is gone.`, state: 'done', records: ids, pod, order: r.id });
      return;
    }
    if (request?.subresource === 'binding') {
      const step = this.open.get(`scheduler/${pod}`);
      if (step) this.attach(step, ...ids);
      return;
    }
    if (r.conditions?.Ready === 'True') {
      p.readyAt ??= r.time;
      const by = request ? request.user.replace('system:node:', 'kubelet/') : 'etcd';
      this.add({ phase: 'ready', title: 'Ready', time: r.time, actor: by, text: `Pod ${pod} is Ready: its containers run and passed their readiness checks (${by} wrote Ready=True, rev ${r.revision}), so Services can route to it.`, state: 'done', records: ids, pod, order: r.id });
      return;
    }
    // Pods a controller wrote (created, marked for deletion) belong with its sync's other writes.
    if (owner && owner.phase === 'controller') return this.written(r, 'Pod', ids, owner, r.operation === 'create' ? undefined : pod);
  }

  private attempt(a: SchedulingAttemptRecord): void {
    const pod = `${a.pod.namespace}/${a.pod.name}`;
    this.pod(pod, a.id);
    const key = `scheduler/${pod}`;
    const open = this.open.get(key);
    const state: StepState = a.outcome === 'scheduled' ? 'waiting' : 'stopped';
    const items: StoryItem[] = [{ time: a.time, text: `attempt ${a.attempt}: ${attemptText(a)}`, state, records: [a.id] }];
    // A failed attempt: each evaluated node's rejection, with NodeResourcesFit's amounts.
    if (a.outcome !== 'scheduled') for (const f of a.filters ?? []) if (f.code !== 'Success') items.push({ time: a.time, text: `${f.node}: ${rejectionText(f)}`, state, records: [a.id] });
    const item = items[0]!;
    if (open) {
      // A pod that could not be scheduled before and is tried again: the earlier try is a retry.
      for (const it of open.items!) if (it.state === 'stopped') (it as { state: StepState }).state = 'retried';
      open.items!.push(...items);
      open.text = a.outcome === 'scheduled' ? `Attempt ${a.attempt}: ${attemptText(a)}` : attemptText(a);
      open.state = a.outcome === 'scheduled' ? 'waiting' : 'stopped';
      this.attach(open, a.id);
      return;
    }
    this.add({ phase: 'scheduler', title: 'Scheduler', time: a.time, actor: a.component, text: attemptText(a), state: item.state, records: [a.id], pod, items, key, order: a.id });
  }

  private binding(b: BindingRecord): void {
    const pod = `${b.pod.namespace}/${b.pod.name}`;
    const step = this.open.get(`scheduler/${pod}`);
    if (!step) return;
    const bound = b.outcome === 'bound';
    if (bound) this.pod(pod, b.id).node = b.node;
    step.items!.push({ time: b.time, text: bound ? `bound the pod to ${b.node}` : `binding to ${b.node} failed: ${b.message ?? ''}`, state: bound ? 'done' : 'stopped', records: [b.id] });
    step.text = `${step.text.replace(/\.$/, '')}${bound ? ' and bound the pod to it' : `, but binding failed: ${b.message ?? ''}`}.`;
    step.state = bound ? 'done' : 'stopped';
    this.attach(step, b.id, ...(b.cause !== undefined ? [b.cause] : []));
  }

  private kubelet(r: KubeletRecord): void {
    if (!r.pod) return;
    const stopping = KUBELET_STOPS.has(r.action) || (r.action === 'container-exited' && this.open.has(`kubelet-stop/${r.pod}`));
    const key = `kubelet-${stopping ? 'stop' : 'start'}/${r.pod}`;
    const state = kubeletState(r);
    const open = this.open.get(key);
    const d = open ?? this.add({ phase: 'kubelet', title: stopping ? 'Kubelet stops the pod' : 'Kubelet', time: r.time, actor: r.component, text: '', state, records: [r.id], pod: r.pod, items: [], key, order: r.id });
    const actions = this.actions.get(d) ?? [];
    this.actions.set(d, actions);
    actions.push(r);
    // What came before is done; a failure followed by success (the pull worked on a retry) was retried.
    for (const it of d.items!) {
      const mutable = it as { state: StepState };
      if (it.state === 'waiting') mutable.state = 'done';
      if (it.state === 'stopped' && state === 'done') mutable.state = 'retried';
    }
    d.items!.push({ time: r.time, text: kubeletPhrase(r), state, records: [r.id] });
    // A failure stays the step's state until something succeeds after it, even while a retry runs.
    const unresolved = d.items!.some((it) => it.state === 'stopped');
    d.state = unresolved ? 'stopped' : state;
    d.text = kubeletText(r.node, actions);
    this.attach(d, r.id);
  }

  // ---- the end -------------------------------------------------------------------------------

  private podSummaries(steps: readonly StoryStep[]): PodSummary[] {
    return [...this.pods]
      .sort((a, b) => a[1].order - b[1].order)
      .map(([pod, p]) => {
        const last = [...steps].reverse().find((s) => s.pod === pod && s.phase !== 'endpoints') ?? steps.find((s) => s.pod === pod);
        return { pod, ...(p.node ? { node: p.node } : {}), phase: last?.phase ?? 'written', state: last?.state ?? 'waiting', ...(p.readyAt !== undefined ? { readyAt: p.readyAt } : {}), deleted: p.deleted };
      });
  }

  private outcome(steps: readonly StoryStep[], pods: readonly PodSummary[]): { state: StoryState; outcome: string } {
    const { root } = this.input;
    const stopped = steps.filter((s) => s.state === 'stopped');
    if (root.code >= 400) return { state: 'stopped', outcome: `Stopped at ${stopped[0]?.title ?? 'the API server'}: ${status(root)}: ${root.message ?? ''}` };
    if (root.dryRun) return { state: 'complete', outcome: 'A dry run: the API server checked it and stored nothing.' };
    if (root.revision === undefined) return { state: 'complete', outcome: 'Nothing changed: the object was already as requested, so etcd wrote no revision and no controller woke up.' };
    if (stopped.length > 0) {
      const first = stopped[0]!;
      const who = first.pod ? `${first.title} for Pod ${first.pod}` : first.title;
      // The kubelet's step tells every try; its first unresolved failure says what went wrong.
      const why = (first.phase === 'kubelet' ? first.items?.find((i) => i.state === 'stopped')?.text : undefined) ?? first.text;
      const more = stopped.length > 1 ? ` (and ${stopped.length - 1} more ${stopped.length === 2 ? 'step' : 'steps'} that could not happen)` : '';
      return { state: 'stopped', outcome: `Stopped at ${who}: ${why.replace(/\.$/, '')}${more}.` };
    }
    const live = pods.filter((p) => !p.deleted);
    const ready = live.filter((p) => p.readyAt !== undefined);
    const waiting = steps.filter((s) => s.state === 'waiting');
    const notReady = live.filter((p) => p.readyAt === undefined);
    if (waiting.length > 0 || notReady.length > 0) {
      const w = waiting[waiting.length - 1];
      const where = w ? `${w.pod ? `${w.pod}: ` : ''}${w.items?.[w.items.length - 1]?.text ?? w.title}` : `${notReady[0]!.pod} is not Ready yet`;
      return { state: 'in-progress', outcome: `In progress${live.length ? ` (${ready.length} of ${counted(live.length, 'pod')} Ready)` : ''}: ${where}.` };
    }
    const last = steps[steps.length - 1]!;
    const took = seconds(last.time - root.time);
    const gone = pods.length - live.length;
    const podsText = live.length ? `; ${counted(ready.length, 'pod')} Ready${gone ? `, ${gone} old ${gone === 1 ? 'pod' : 'pods'} removed` : ''}` : gone ? `; ${counted(gone, 'pod')} removed` : '';
    return { state: 'complete', outcome: `Done in ${took}${podsText}.` };
  }
}

function attemptText(a: SchedulingAttemptRecord): string {
  if (a.outcome !== 'scheduled') return `Could not schedule it: ${(a.message ?? a.outcome).replace(/\.*$/, '')}.`;
  // Who turned which nodes away: per node when the attempt kept per-node detail, else per plugin.
  const byPlugin = new Map<string, string[]>();
  for (const f of a.filters ?? []) {
    if (f.code === 'Success') continue;
    const list = byPlugin.get(f.plugin);
    const reasons = rejectionText(f).slice(f.plugin.length + 2);
    const why = reasons ? ` (${reasons})` : '';
    if (list) list.push(`${f.node}${why}`);
    else byPlugin.set(f.plugin, [`${f.node}${why}`]);
  }
  const away = byPlugin.size
    ? [...byPlugin].map(([plugin, nodes]) => `${plugin} turned away ${prose(nodes)}`)
    : Object.entries(a.rejectionsByPlugin).map(([plugin, n]) => `${plugin} turned away ${counted(n, 'node')}`);
  const top = a.ranking.slice(0, 3).map((n) => `${n.node} ${n.score}`);
  return `${a.feasibleNodes} of ${a.numAllNodes} nodes fit${away.length ? `: ${away.join('; ')}` : ''}. ${top.length ? `Top scores: ${top.join(', ')}; it ` : 'It '}chose ${a.node ?? ''}.`;
}

function kubeletState(r: KubeletRecord): StepState {
  if (KUBELET_FAILURES.has(r.action)) return 'stopped';
  if (r.action === 'container-exited') return /exit code 0\b/.test(r.detail) ? 'done' : 'stopped';
  if (r.action === 'probe-result') return /success/.test(r.detail) ? 'done' : 'waiting';
  if (KUBELET_WAITING.has(r.action) || r.action === 'pod-terminating' || r.action === 'container-killing') return 'waiting';
  return 'done';
}

/**
 * The kubelet's steps for a pod in one sentence: each kind of action once, in the order it first
 * happened, with how often it repeated (a pull that keeps failing), the latest words of each,
 * and a pull in progress only while nothing came after it.
 */
function kubeletText(node: string, actions: readonly KubeletRecord[]): string {
  const last = new Map<string, { r: KubeletRecord; count: number }>();
  for (const r of actions) {
    const k = `${r.action}/${r.container ?? ''}`;
    const seen = last.get(k);
    last.set(k, { r, count: (seen?.count ?? 0) + 1 });
  }
  const final = actions[actions.length - 1]!;
  const parts: string[] = [];
  for (const { r, count } of last.values()) {
    if (r.action === 'image-pulling' && r !== final) continue;
    parts.push(`${kubeletPhrase(r)}${count > 1 && KUBELET_FAILURES.has(r.action) && !r.action.endsWith('back-off') ? ` (${count} times)` : ''}`);
  }
  return `On ${node}, the kubelet ${prose(parts)}.`;
}

export function buildStory(input: StoryInput): Story {
  return new StoryBuilder(input).build();
}
