/**
 * The selected record's detail, one renderer per list. Each shows the record's own fields, its
 * cause and its effects as links (the trace's cause links, nothing inferred), and for a
 * revision the object as it was then and its diff with the version before, read through the
 * API server at those revisions.
 */
import type { ApiRequestRecord } from '../../src/protocol/trace-records';
import type { ReconcileRecord } from '../../src/protocol/trace-records';
import type { RevisionRecord } from '../../src/protocol/trace-records';
import type { BindingRecord, SchedulingAttemptRecord } from '../../src/protocol/trace-records';
import type { ObjectAtRevision, PanelRecord, RevisionMessage } from '../../src/protocol/panel';
import { diffLines, diffStat, foldUnchanged } from '../model/diff';
import { stepLabel } from '../model/flow';
import { formatDuration, formatTimestamp, plural } from '../model/format';
import type { RecordStore } from '../model/record-store';
import { kindOf, reconcileOutcome, reconcileTrigger, requestObject, requestResource, type Kinds, type RevisionRowRecord, type SchedulerRowRecord } from '../model/rows';
import { filterTable, scoreTable } from '../model/scheduler';
import { rejectionText } from '../model/verdicts';
import { h, replaceChildren, type Child } from './dom';

export interface DetailContext {
  readonly store: RecordStore;
  kinds(): Kinds;
  /** A link to a record in the view that lists it (plain text when none does or it fell off). */
  link(id: number, text?: string): Node;
  timeTravel(r: RevisionRecord): Promise<RevisionMessage>;
  showFlow(id: number): void;
}

type Value = Node | string | undefined | false;

function fields(rows: readonly [string, Value][]): HTMLElement {
  const dl = h('dl', { class: 'fields' });
  for (const [label, value] of rows) {
    if (value === undefined || value === false || value === '') continue;
    dl.append(h('dt', {}, label), h('dd', {}, value));
  }
  return dl;
}

const MAX_EFFECTS = 60;

/** "Caused by" and "Led to": the record's cause and effects, as the trace links them. */
function relations(r: PanelRecord, ctx: DetailContext): HTMLElement {
  const effects = ctx.store.effectsOf(r.id);
  const list = h('ul', { class: 'links' });
  for (const e of effects.slice(0, MAX_EFFECTS)) list.append(h('li', {}, ctx.link(e.id)));
  if (effects.length > MAX_EFFECTS) list.append(h('li', { class: 'hint' }, `and ${plural(effects.length - MAX_EFFECTS, 'more record')}`));
  return h(
    'div',
    { class: 'relations' },
    fields([
      ['Record', `#${r.id} · ${r.component} · ${formatTimestamp(r.time)}`],
      ['Caused by', r.cause === undefined ? 'none recorded' : ctx.link(r.cause)],
    ]),
    effects.length > 0 && h('h3', {}, `Led to (${effects.length})`),
    effects.length > 0 && list,
  );
}

// ---- revisions ------------------------------------------------------------------------------

export function revisionDetail(r: RevisionRowRecord, ctx: DetailContext): Node {
  if (r.type === 'store.compaction') {
    return h(
      'div',
      {},
      h('h2', {}, `Compaction below revision ${r.revision}`),
      h('p', { class: 'banner compacted' }, `etcd's history below revision ${r.revision} was compacted: reading an object at an older revision now gets 410 Gone.`),
      relations(r, ctx),
    );
  }
  const kind = kindOf(ctx.kinds(), r.group, r.resource);
  const object = r.namespace ? `${r.namespace}/${r.name}` : r.name;
  const travel = h('div', { class: 'time-travel', 'aria-busy': 'true' }, h('p', { class: 'hint' }, `Reading ${kind} ${object} at revisions ${r.revision} and ${r.revision - 1} through the API server…`));
  void ctx.timeTravel(r).then((answer) => {
    travel.removeAttribute('aria-busy');
    replaceChildren(travel, ...timeTravelView(r, answer));
  });
  return h(
    'div',
    {},
    h('h2', {}, `Revision ${r.revision}: ${r.operation} ${kind} ${object}`),
    fields([
      ['Key', r.key],
      ['Operation', r.operation],
      ['Actor', r.actor ?? 'none recorded'],
      ['Change', r.change],
    ]),
    travel,
    relations(r, ctx),
  );
}

function timeTravelView(r: RevisionRecord, answer: RevisionMessage): (Node | undefined)[] {
  const { at, before } = answer;
  const out: (Node | undefined)[] = [];
  for (const side of [at, before]) if (side.state === 'compacted' || side.state === 'error') out.push(problem(side));
  const text = (side: ObjectAtRevision): string | undefined => (side.state === 'found' ? side.yaml : side.state === 'absent' ? '' : undefined);
  const now = text(at);
  const then = text(before);
  if (now !== undefined && then !== undefined) {
    const lines = diffLines(then, now);
    const { added, removed } = diffStat(lines);
    const pre = h('pre', { class: 'diff', tabindex: 0, 'aria-label': `Diff from revision ${r.revision - 1} to ${r.revision}` });
    for (const l of foldUnchanged(lines)) {
      if ('skipped' in l) pre.append(h('span', { class: 'fold' }, `  ⋯ ${plural(l.skipped, 'unchanged line')}\n`));
      else pre.append(h('span', { class: l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'same' }, `${l.op} ${l.text}\n`));
    }
    out.push(h('h3', {}, `Diff with the version before (read at revision ${r.revision - 1}): +${added} −${removed}`), absentNote(before), absentNote(at), pre);
  }
  if (at.state === 'found') {
    out.push(h('details', {}, h('summary', {}, `The object at revision ${r.revision} (metadata.managedFields left out)`), h('pre', { class: 'code', tabindex: 0 }, at.yaml)));
  }
  return out;
}

function absentNote(side: ObjectAtRevision): Node | undefined {
  return side.state === 'absent' ? h('p', { class: 'hint' }, `The object did not exist at revision ${side.revision}.`) : undefined;
}

function problem(side: ObjectAtRevision): Node {
  if (side.state === 'compacted') {
    return h('p', { class: 'banner compacted', role: 'note' }, h('strong', {}, `Revision ${side.revision} is compacted. `), `The API server answered 410 Gone: ${side.message}`);
  }
  const message = side.state === 'error' ? `${side.code}: ${side.message}` : '';
  return h('p', { class: 'banner failed', role: 'note' }, `Reading revision ${side.revision} failed: ${message}`);
}

// ---- requests -------------------------------------------------------------------------------

const STAGE_TITLES: Readonly<Record<string, string>> = {
  authentication: 'Authentication',
  impersonation: 'Impersonation',
  authorization: 'Authorization',
  decode: 'Decode',
  'mutating-admission': 'Mutating admission',
  validation: 'Validation',
  'validating-admission': 'Validating admission',
  storage: 'Storage',
};

const VERDICT_MARK: Readonly<Record<string, string>> = { passed: '✓', mutated: '✎', rejected: '✗', skipped: '–' };

export function requestDetail(r: ApiRequestRecord, ctx: DetailContext): Node {
  const failed = r.code >= 400;
  const stages = h(
    'table',
    { class: 'stages' },
    h('caption', {}, 'Pipeline stages'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Stage'), h('th', { scope: 'col' }, 'Verdict'), h('th', { scope: 'col' }, 'Rule'), h('th', { scope: 'col' }, 'Detail'))),
    h(
      'tbody',
      {},
      ...r.stages.map((s) =>
        h(
          'tr',
          { class: `verdict-${s.verdict}` },
          h('th', { scope: 'row' }, STAGE_TITLES[s.stage] ?? s.stage),
          h('td', { class: 'verdict' }, `${VERDICT_MARK[s.verdict] ?? ''} ${s.verdict}`),
          h('td', {}, s.rule ?? ''),
          h('td', {}, s.detail ?? ''),
        ),
      ),
    ),
  );
  const flow = h('vscode-button', { appearance: 'secondary' }, 'Show flow');
  flow.addEventListener('click', () => ctx.showFlow(r.id));
  return h(
    'div',
    {},
    h('h2', {}, `${r.verb} ${requestResource(r)} ${requestObject(r)}`.trim()),
    failed && h('p', { class: 'banner failed', role: 'note' }, h('strong', {}, `${r.code} ${r.reason ?? ''}`.trim() + ': '), r.message ?? ''),
    fields([
      ['Status', `${r.code}${r.reason ? ` ${r.reason}` : ''}`],
      ['User', r.user],
      ['Groups', r.groups.join(', ')],
      ['Impersonated by', r.impersonatedBy],
      ['Dry run', r.dryRun ? 'yes (nothing stored)' : undefined],
      ['Revision written', r.revision !== undefined ? String(r.revision) : undefined],
    ]),
    r.warnings && r.warnings.length > 0 && h('ul', { class: 'warnings', 'aria-label': 'Warnings' }, ...r.warnings.map((w) => h('li', {}, `Warning: ${w}`))),
    stages,
    h('div', { class: 'actions' }, flow),
    relations(r, ctx),
  );
}

// ---- controllers ----------------------------------------------------------------------------

export function reconcileDetail(r: ReconcileRecord, ctx: DetailContext): Node {
  const requests = h('ol', { class: 'links' }, ...r.requests.map((id) => h('li', {}, ctx.link(id))));
  return h(
    'div',
    {},
    h('h2', {}, `${r.component}: sync ${r.key}`),
    r.outcome === 'error' && h('p', { class: 'banner failed', role: 'note' }, `Error: ${r.error ?? ''}`),
    fields([
      ['Trigger', reconcileTrigger(r)],
      ['Triggering revision', r.trigger === 'event' && r.cause !== undefined ? ctx.link(r.cause) : r.revision !== undefined ? String(r.revision) : undefined],
      ['Observed', r.observed],
      ['Outcome', reconcileOutcome(r)],
      ['Requeue after', r.requeueAfterMs !== undefined ? formatDuration(r.requeueAfterMs) : undefined],
      ['Backoff', r.backoffMs !== undefined ? formatDuration(r.backoffMs) : undefined],
      ['Requeues so far', r.retries !== undefined ? String(r.retries) : undefined],
      ['Dropped', r.dropped ? 'yes: the loop gave up on the key after its maximum retries' : undefined],
    ]),
    h('h3', {}, `Requests issued (${r.requests.length})`),
    r.requests.length > 0 ? requests : h('p', { class: 'hint' }, 'None: the state already matched.'),
    relations(r, ctx),
  );
}

// ---- scheduler ------------------------------------------------------------------------------

const MAX_TABLE_NODES = 300;

export function schedulingDetail(r: SchedulerRowRecord, ctx: DetailContext): Node {
  return r.type === 'scheduler.binding' ? bindingDetail(r, ctx) : attemptDetail(r, ctx);
}

function bindingDetail(r: BindingRecord, ctx: DetailContext): Node {
  return h(
    'div',
    {},
    h('h2', {}, `Binding ${r.pod.namespace}/${r.pod.name} to ${r.node}: ${r.outcome}`),
    r.outcome === 'failed' && h('p', { class: 'banner failed', role: 'note' }, r.message ?? ''),
    fields([
      ['Cycle', String(r.cycle)],
      ['Node', r.node],
      ['Outcome', r.outcome],
    ]),
    relations(r, ctx),
  );
}

function attemptDetail(a: SchedulingAttemptRecord, ctx: DetailContext): Node {
  const pod = `${a.pod.namespace}/${a.pod.name}`;
  const headline = a.outcome === 'scheduled' ? `${pod} → ${a.node ?? ''}` : `${pod}: ${a.outcome}`;
  const filters = filterTable(a);
  const scores = scoreTable(a);
  return h(
    'div',
    {},
    h('h2', {}, `Scheduling attempt ${a.attempt}: ${headline}`),
    a.outcome !== 'scheduled' && a.message !== undefined && h('p', { class: 'banner failed', role: 'note' }, h('strong', {}, 'FailedScheduling: '), a.message),
    fields([
      ['Chosen node', a.node],
      ['Cycle', String(a.cycle)],
      ['Nodes', `${a.numAllNodes} in the cluster, ${a.evaluatedNodes} evaluated (from index ${a.searchStart}, aiming for ${a.numNodesToFind}), ${a.feasibleNodes} feasible`],
      ['PreFilter', a.preFilterStatus ? `${a.preFilterStatus.plugin}: ${a.preFilterStatus.code} ${a.preFilterStatus.reasons.join('; ')}` : undefined],
      ['PreFilter skipped', a.preFilterSkipped.length ? a.preFilterSkipped.join(', ') : undefined],
      ['PreFilter narrowed to', a.preFilterNodes?.join(', ')],
      ['PreScore skipped', a.preScoreSkipped?.length ? a.preScoreSkipped.join(', ') : undefined],
      ['Rejections', Object.entries(a.rejectionsByPlugin).map(([p, n]) => `${p}: ${n}`).join(', ') || undefined],
      ['Ranking', a.ranking.map((n) => `${n.node} (${n.score})`).join(', ') || undefined],
      ['Preemption', a.preemption ? preemptionText(a.preemption) : undefined],
    ]),
    filters ? filterTableView(filters, a) : h('p', { class: 'hint' }, 'The per-node filter and score tables were not recorded for this attempt (summary detail).'),
    scores && scoreTableView(scores),
    relations(a, ctx),
  );
}

function preemptionText(p: NonNullable<SchedulingAttemptRecord['preemption']>): string {
  const nominated = p.nominatedNodeName ? `nominated ${p.nominatedNodeName}` : '';
  const victims = p.victims.length ? `victims ${p.victims.join(', ')}` : '';
  return [nominated, victims, p.message].filter(Boolean).join('; ');
}

/**
 * The filter table: one row per evaluated node (its name sticks to the left when the table
 * scrolls), one narrow column per filter plugin in the order they ran (✓ passed, ✗ rejected,
 * · not run; the reason in the cell's tooltip), and the node's verdict in words, with
 * NodeResourcesFit's amounts. Readable at 1400x900 for a few nodes, scrollable for many.
 */
function filterTableView(t: NonNullable<ReturnType<typeof filterTable>>, a: SchedulingAttemptRecord): Node {
  const rows = t.rows.slice(0, MAX_TABLE_NODES);
  const mark = { passed: '✓', rejected: '✗', 'not run': '·' } as const;
  const verdicts = new Map((a.filters ?? []).map((v) => [v.node, v]));
  return h(
    'div',
    { class: 'table-wrap matrix-wrap', tabindex: 0, role: 'region', 'aria-label': 'Filter table' },
    h(
      'table',
      { class: 'matrix filters-table' },
      h('caption', {}, 'Filter: each evaluated node against each filter plugin, in the order they ran (✓ passed, ✗ rejected, · not run)'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'node-col' }, 'Node'), ...t.plugins.map((p) => h('th', { scope: 'col', class: 'plugin', title: p }, h('span', {}, ...pluginHeading(p)))), h('th', { scope: 'col', class: 'verdict-col' }, 'Verdict'))),
      h(
        'tbody',
        {},
        ...rows.map((row) => {
          const v = verdicts.get(row.node);
          const verdict = row.chosen ? 'chosen' : row.feasible ? 'feasible' : v ? rejectionText(v) : 'rejected';
          return h(
            'tr',
            { class: row.chosen ? 'chosen' : row.feasible ? 'feasible' : 'infeasible' },
            h('th', { scope: 'row', class: 'node-col' }, row.node),
            ...row.cells.map((c, i) => h('td', { class: `mark verdict-${c.verdict.replace(' ', '-')}`, title: `${t.plugins[i]}: ${c.reasons.join('; ') || c.verdict}`, 'aria-label': `${t.plugins[i]}: ${c.verdict}${c.reasons.length ? `: ${c.reasons.join('; ')}` : ''}` }, mark[c.verdict])),
            h('td', { class: 'verdict-col' }, verdict),
          );
        }),
      ),
    ),
    t.rows.length > rows.length && h('p', { class: 'hint' }, `${plural(t.rows.length - rows.length, 'more node')} not shown.`),
  );
}

/**
 * A plugin's name as a column heading: break opportunities between its words
 * ("NodeResources|Balanced|Allocation"), so a long name wraps onto a second vertical line
 * instead of being cut.
 */
function pluginHeading(name: string): Child[] {
  const out: Child[] = [];
  for (const part of name.split(/(?<=[a-z])(?=[A-Z])/)) {
    if (out.length) out.push(h('wbr'));
    out.push(part);
  }
  return out;
}

/** A bar as long as a share of the best total (sized through the CSSOM: the CSP allows no style attributes). */
function scoreBar(share: number): HTMLElement {
  const bar = h('span', { class: 'score-bar', 'aria-hidden': 'true' });
  bar.style.width = `${Math.round(share * 60)}px`;
  return bar;
}

/** The score table: per node, each score plugin's weighted score (raw and normalized in the tooltip) and the total. */
function scoreTableView(t: NonNullable<ReturnType<typeof scoreTable>>): Node {
  const rows = t.rows.slice(0, MAX_TABLE_NODES);
  const best = Math.max(1, ...rows.map((r) => r.total));
  return h(
    'div',
    { class: 'table-wrap matrix-wrap', tabindex: 0, role: 'region', 'aria-label': 'Score table' },
    h(
      'table',
      { class: 'matrix scores-table' },
      h('caption', {}, 'Score: each plugin\u2019s weighted score (hover for raw / normalized / weighted; weight after ×), and the total'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'node-col' }, 'Node'), ...t.plugins.map((p) => h('th', { scope: 'col', class: 'plugin', title: `${p.name} (weight ${p.weight})` }, h('span', {}, ...pluginHeading(`${p.name} ×${p.weight}`)))), h('th', { scope: 'col', class: 'total-col' }, 'Total'))),
      h(
        'tbody',
        {},
        ...rows.map((row) =>
          h(
            'tr',
            { class: row.chosen ? 'chosen' : '' },
            h('th', { scope: 'row', class: 'node-col' }, row.chosen ? `${row.node} (chosen)` : row.node),
            ...row.cells.map((c, i) => h('td', { class: 'num', title: `${t.plugins[i]!.name}: raw ${c.raw} / normalized ${c.normalized} / weighted ${c.weighted}` }, String(c.weighted))),
            h('td', { class: 'num total-col' }, scoreBar(row.total / best), ` ${row.total}`),
          ),
        ),
      ),
    ),
    t.rows.length > rows.length && h('p', { class: 'hint' }, `${plural(t.rows.length - rows.length, 'more node')} not shown.`),
  );
}

/** The link text for a record: what happened, in a few words. */
export function linkText(r: PanelRecord): string {
  return `#${r.id} ${stepLabel(r)}`;
}
