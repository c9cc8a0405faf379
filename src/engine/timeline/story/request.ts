/**
 * The first part of a story: the request itself and the API server's pipeline, one step per
 * stage the request went through, told from the stage results the API server recorded (the
 * deciding rule, what a plugin changed, the error), ending at the etcd write or at the stage
 * that rejected it.
 */
import type { ApiRequestRecord, RequestStage, StageResult } from '../../trace/apiserver';
import type { RevisionRecord } from '../../trace/revision';
import { actorName } from '../actor';
import { requestOrigin } from '../noise';
import type { StoryItem, StoryStep } from './types';
import { prose, STAGE_TITLES } from './words';
import { table } from '../../api/own';

export interface Names {
  /** "Deployment", from the API server's registry; the resource itself when unknown. */
  kindOf(group: string, resource: string): string;
}

const ORIGIN_WORDS = { kubectl: ' from kubectl', editor: ' from the editor', panel: ' from the control-plane panel', component: '', other: '' } as const;

const VERB_WORDS = table<string>({
  create: 'create',
  update: 'update',
  patch: 'patch',
  delete: 'delete',
  deletecollection: 'delete a collection of',
});

/** "422 Invalid", "500". */
export function status(r: ApiRequestRecord): string {
  return r.reason ? `${r.code} ${r.reason}` : String(r.code);
}

export function objectName(r: { namespace?: string; name?: string }): string {
  return `${r.namespace ? `${r.namespace}/` : ''}${r.name ?? ''}`;
}

/** "kubernetes-admin applied Deployment default/web". */
export function storyTitle(r: ApiRequestRecord, names: Names): string {
  const verb = r.verb === 'patch' && r.patchType === 'apply' ? 'applied' : r.verb === 'create' ? 'created' : r.verb === 'delete' ? 'deleted' : r.verb === 'update' ? 'replaced' : `${r.verb}ed`;
  const sub = r.subresource ? ` (${r.subresource})` : '';
  return `${r.user} ${verb} ${names.kindOf(r.group, r.resource)} ${objectName(r)}${sub}`.trim();
}

function requestStep(r: ApiRequestRecord, names: Names): StoryStep {
  const how = r.verb === 'patch' ? (r.patchType === 'apply' ? ' (server-side apply)' : r.patchType ? ` (${r.patchType} patch)` : '') : '';
  const kind = names.kindOf(r.group, r.resource);
  const dry = r.dryRun ? ' as a dry run (nothing is stored)' : '';
  const decoded = r.stages.find((s) => s.stage === 'decode' && s.verdict !== 'rejected');
  const decodedAs = decoded ? ` It decoded the body as ${decoded.detail ?? kind}${decoded.rule ? ` (${decoded.rule})` : ''}.` : '';
  return {
    phase: 'request',
    title: 'Request',
    time: r.time,
    actor: actorName(r.user),
    text: `${r.user} asked the API server to ${VERB_WORDS[r.verb] ?? r.verb} ${kind} ${objectName(r)}${how}${ORIGIN_WORDS[requestOrigin(r)]}${dry}.${decodedAs}`,
    state: 'done',
    records: [r.id],
  };
}

function stageText(stage: RequestStage, results: readonly StageResult[], r: ApiRequestRecord, stored: RevisionRecord | undefined): string {
  const rejected = results.find((s) => s.verdict === 'rejected');
  if (rejected) {
    const why = r.message ?? rejected.detail ?? '';
    return `${rejected.rule ? `${rejected.rule} rejected it` : 'Rejected'}: ${status(r)}: ${why}`;
  }
  const first = results[0]!;
  switch (stage) {
    case 'authentication':
      return `Authenticated as ${first.detail ?? r.user} (groups ${r.groups.join(', ') || 'none'}) by ${first.rule ?? 'the authenticator'}.`;
    case 'impersonation':
      return `${r.impersonatedBy ?? 'The caller'} impersonates ${r.user}${first.rule ? `: ${first.rule}` : ''}.`;
    case 'authorization':
      return `Allowed: ${first.rule ?? 'authorized'}.`;
    case 'decode':
      return `Decoded as ${first.detail ?? ''}${first.rule ? ` (${first.rule})` : ''}.`;
    case 'mutating-admission': {
      const changed = results.filter((s) => s.verdict === 'mutated');
      const passed = results.filter((s) => s.verdict !== 'mutated').map((s) => s.rule ?? '');
      if (changed.length === 0) return `${prose(passed)} let it through unchanged.`;
      return `${prose(changed.map((s) => s.rule ?? ''))} changed the object${passed.length ? `; ${prose(passed)} let it through` : ''}.`;
    }
    case 'validation':
      return `Valid: it passed ${prose(results.map((s) => s.rule ?? 'the field rules'))}.`;
    case 'validating-admission':
      return `${prose(results.map((s) => s.rule ?? ''))} admitted it.`;
    case 'storage':
      if (stored) return `etcd stored it at ${stored.key}: revision ${stored.revision} (${stored.operation === 'update' ? stored.change : stored.operation === 'create' ? 'created' : 'deleted'}).`;
      return `${first.detail ?? 'Stored'}${first.rule ? ` (${first.rule})` : ''}.`.replace(/^./, (c) => c.toUpperCase());
  }
}

/**
 * The request and one step per pipeline stage, in the order they ran; a stage that rejected the
 * request ends the list, stopped. The decode stage, when it passed, is part of the request step.
 */
export function pipelineSteps(r: ApiRequestRecord, stored: RevisionRecord | undefined, names: Names): StoryStep[] {
  const steps: StoryStep[] = [requestStep(r, names)];
  const byStage = new Map<RequestStage, StageResult[]>();
  for (const s of r.stages) {
    const list = byStage.get(s.stage);
    if (list) list.push(s);
    else byStage.set(s.stage, [s]);
  }
  for (const [stage, results] of byStage) {
    const rejected = results.some((s) => s.verdict === 'rejected');
    if (stage === 'decode' && !rejected) continue;
    const storage = stage === 'storage';
    // Several plugins of one stage: each its own part (what it changed, or that it passed).
    const items: StoryItem[] = results.length > 1 ? results.map((s) => ({ time: r.time, text: `${s.rule ?? STAGE_TITLES[stage]}: ${s.verdict}${s.detail ? ` (${s.detail})` : ''}`, state: s.verdict === 'rejected' ? 'stopped' : 'done', records: [r.id] })) : [];
    steps.push({
      phase: storage ? 'etcd' : stage,
      title: STAGE_TITLES[stage],
      time: storage && stored ? stored.time : r.time,
      actor: storage ? 'etcd' : 'kube-apiserver',
      text: stageText(stage, results, r, stored),
      state: rejected ? 'stopped' : 'done',
      records: storage && stored ? [r.id, stored.id] : [r.id],
      ...(items.length && !storage ? { items } : {}),
    });
    if (rejected) break;
  }
  // A request that failed after its stages (a conflict at storage, a timeout) stops here too.
  if (r.code >= 400 && !steps.some((s) => s.state === 'stopped')) {
    steps.push({ phase: 'etcd', title: 'Rejected', time: r.time, actor: 'kube-apiserver', text: `The API server answered ${status(r)}: ${r.message ?? ''}`, state: 'stopped', records: [r.id] });
  }
  return steps;
}
