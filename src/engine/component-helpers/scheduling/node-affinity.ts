/**
 * Node selector matching (component-helpers scheduling/corev1/nodeaffinity): nodeSelector plus
 * required node affinity terms (ORed; a term's requirements ANDed), and the weighted preferred
 * terms. Like LazyErrorNodeSelector, a term that does not parse only matters when no term matches.
 */
import { Selector, newRequirement, selectorFromSet, type Labels, type Operator, type Requirement } from '../../api/labels';
import type { NodeAffinityPod, NodeSelector, NodeSelectorTerm, PreferredSchedulingTerm } from './types';
import { table } from '../../api/own';

const OPERATORS = table<Operator>({ In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!', Gt: 'gt', Lt: 'lt' });

interface ParsedTerm {
  labels: Selector | null;
  /** metadata.name requirements: In / NotIn with exactly one value. */
  fields: { op: 'in' | 'notin'; value: string }[] | null;
  error: string | null;
}

function parseTerm(term: NodeSelectorTerm): ParsedTerm {
  const out: ParsedTerm = { labels: null, fields: null, error: null };
  const exprs = term.matchExpressions ?? [];
  if (exprs.length > 0) {
    const reqs: Requirement[] = [];
    for (const e of exprs) {
      const op = OPERATORS[e.operator];
      if (!op) {
        out.error = `Unsupported value: "${e.operator}"`;
        return out;
      }
      const r = newRequirement(e.key, op, e.values && e.values.length > 0 ? e.values : null);
      if (!r.ok) {
        out.error = r.error;
        return out;
      }
      reqs.push(r.value);
    }
    out.labels = Selector.of(reqs);
  }
  const fields = term.matchFields ?? [];
  if (fields.length > 0) {
    out.fields = [];
    for (const f of fields) {
      if ((f.operator !== 'In' && f.operator !== 'NotIn') || (f.values?.length ?? 0) !== 1) {
        out.error = `invalid field requirement ${f.key} ${f.operator}`;
        return out;
      }
      out.fields.push({ op: f.operator === 'In' ? 'in' : 'notin', value: f.values![0]! });
    }
  }
  return out;
}

const isEmptyTerm = (t: NodeSelectorTerm): boolean => (t.matchExpressions?.length ?? 0) === 0 && (t.matchFields?.length ?? 0) === 0;

function termMatches(t: ParsedTerm, nodeName: string, labels: Labels): boolean {
  if (t.error) return false;
  if (t.labels && !t.labels.matches(labels)) return false;
  if (t.fields && nodeName !== '') {
    for (const f of t.fields) if ((nodeName === f.value) !== (f.op === 'in')) return false;
  }
  return true;
}

/** A node selector: its non-empty terms, ORed; empty or no terms match nothing. */
export class NodeSelectorMatcher {
  private readonly terms: ParsedTerm[];

  constructor(ns: NodeSelector) {
    this.terms = (ns.nodeSelectorTerms ?? []).filter((t) => !isEmptyTerm(t)).map(parseTerm);
  }

  matches(nodeName: string, labels: Labels): boolean {
    for (const t of this.terms) if (termMatches(t, nodeName, labels)) return true;
    return false;
  }
}

/** GetRequiredNodeAffinity: pod.spec.nodeSelector AND the required node affinity. */
export class RequiredNodeAffinity {
  private readonly labelSelector: Selector | null;
  private readonly nodeSelector: NodeSelectorMatcher | null;

  constructor(pod: NodeAffinityPod) {
    const ns = pod.spec.nodeSelector;
    this.labelSelector = ns && Object.keys(ns).length > 0 ? selectorFromSet(ns) : null;
    const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    this.nodeSelector = required ? new NodeSelectorMatcher(required) : null;
  }

  /** Whether the pod constrains nodes at all. */
  get constrained(): boolean {
    return this.labelSelector !== null || this.nodeSelector !== null;
  }

  matches(nodeName: string, labels: Labels): boolean {
    if (this.labelSelector && !this.labelSelector.matches(labels)) return false;
    if (this.nodeSelector) return this.nodeSelector.matches(nodeName, labels);
    return true;
  }
}

/** PreferredSchedulingTerms: the sum of the weights of the terms a node matches. */
export class PreferredSchedulingTerms {
  private readonly terms: { term: ParsedTerm; weight: number }[];

  constructor(terms: readonly PreferredSchedulingTerm[]) {
    this.terms = terms
      .filter((t) => t.weight !== 0 && !isEmptyTerm(t.preference))
      .map((t) => ({ term: parseTerm(t.preference), weight: t.weight }))
      .filter((t) => t.term.error === null);
  }

  get empty(): boolean {
    return this.terms.length === 0;
  }

  score(nodeName: string, labels: Labels): number {
    let s = 0;
    for (const { term, weight } of this.terms) if (termMatches(term, nodeName, labels)) s += weight;
    return s;
  }
}

