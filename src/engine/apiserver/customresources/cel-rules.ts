/**
 * CRD validation rules (x-kubernetes-validations; apiextensions-apiserver pkg/apiserver/schema/
 * cel): each rule compiled where it is declared with `self` typed by its schema node (and
 * `oldSelf`, optional with optionalOldSelf), at CRD create and update (compile errors as field
 * errors of the CRD) and evaluated on every create and update of a custom resource: a rule that
 * evaluates false is reported at the node (or its fieldPath) with its message, messageExpression
 * or `failed rule: <rule>` and its reason; transition rules (those using oldSelf) run only where
 * an old value correlates (unchanged list position in map and set lists, same key in maps and
 * objects) and not on create unless optionalOldSelf is set.
 */
import { duplicate, forbidden, GoValue, invalid, OMIT, Path, required, type ErrorList, type FieldError } from '../../api/field';
import { goQuote } from '../../api/gofmt';
import type { JsonValue } from '../../api/types';
import { isObject } from '../../api/types';
import { compile, type CelProgram } from '../../cel/compile';
import { extendEnvironment } from '../../cel/environment';
import { CelRuntimeError } from '../../cel/values';
import { Optional } from '@marcbachmann/cel-js';
import { semanticEqual } from '../validation/meta';
import { declType, setTyped, typedValue, withTypeAndObjectMeta, type ObjectType } from './cel-types';
import type { Structural, ValidationRule } from './structural';
import { dict, own } from '../../api/own';
import { CostLimitExceeded, CostTracker, estimateCost, instrument, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET, withTracker } from '../../cel/cost';
import { costErrorMessage, maxCardinality, maxChildren, multiplyWithOverflowGuard, schemaSizeEstimator, sizeTree, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT, TotalCost } from './cel-cost';

interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program?: CelProgram;
  readonly error?: string;
  readonly message?: CelProgram;
  readonly messageError?: string;
  readonly usesOldSelf: boolean;
  /** The estimated worst-case cost of the rule and of its messageExpression (cel.EstimateCost). */
  readonly maxCost: bigint;
  readonly messageMaxCost: bigint;
  /** How often the rule could run under unbounded lists and maps (MaxCardinality). */
  readonly maxCardinality: bigint;
}

const SELF_TYPE = 'selfType0';

/** Whether an expression names oldSelf (outside string literals). */
function usesOldSelf(expression: string): boolean {
  return /\boldSelf\b/.test(expression.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""'));
}

const cache = new WeakMap<Structural, CompiledRule[]>();

/** The compiled rules of one schema node (the root adds apiVersion, kind and metadata). */
export function compiledRules(s: Structural, isRoot: boolean): CompiledRule[] {
  const hit = cache.get(s);
  if (hit) return hit;
  const node = isRoot ? withTypeAndObjectMeta(s) : s;
  const types: ObjectType[] = [];
  const self = declType(node, SELF_TYPE, types);
  const withOld = extendEnvironment({ types, variables: { self, oldSelf: self } });
  const withOptionalOld = extendEnvironment({ types, variables: { self, oldSelf: `optional<${self}>` } });
  const sizes = sizeTree(s, isRoot);
  const estimator = schemaSizeEstimator(sizes);
  const cardinality = maxCardinality(sizes?.minSerializedSize ?? 2n);
  const out = s.validations.map((rule): CompiledRule => {
    const env = rule.optionalOldSelf ? withOptionalOld : withOld;
    const r = compile(env, rule.rule);
    const compiled: { -readonly [K in keyof CompiledRule]: CompiledRule[K] } = { rule, usesOldSelf: usesOldSelf(rule.rule), maxCost: 0n, messageMaxCost: 0n, maxCardinality: cardinality };
    if (!r.ok) compiled.error = r.error;
    else if (r.outputType !== 'bool') compiled.error = 'cel expression must evaluate to a bool';
    else {
      compiled.program = r.program;
      compiled.maxCost = estimateCost(r.ast, estimator).max;
      instrument(r.ast);
    }
    if (compiled.error === undefined && rule.messageExpression.trim() !== '') {
      const m = compile(env, rule.messageExpression);
      if (!m.ok) compiled.messageError = m.error.startsWith('compilation failed') ? `messageExpression ${m.error}` : m.error;
      else if (m.outputType !== 'string') compiled.messageError = 'messageExpression must evaluate to a string';
      else {
        compiled.message = m.program;
        compiled.messageMaxCost = estimateCost(m.ast, estimator).max;
        instrument(m.ast);
      }
    }
    return compiled;
  });
  cache.set(s, out);
  return out;
}

/** The Go value kube-apiserver prints for a rule in a CRD's field errors (%#v of ValidationRule). */
function ruleValue(rule: ValidationRule): GoValue {
  const reason = rule.reason === undefined ? '(*apiextensions.FieldValueErrorReason)(nil)' : `(*apiextensions.FieldValueErrorReason)(${goQuote(rule.reason)})`;
  const optional = rule.optionalOldSelf === undefined ? '(*bool)(nil)' : `(*bool)(${rule.optionalOldSelf})`;
  return new GoValue(
    `apiextensions.ValidationRule{Rule:${goQuote(rule.rule)}, Message:${goQuote(rule.message)}, MessageExpression:${goQuote(rule.messageExpression)}, Reason:${reason}, FieldPath:${goQuote(rule.fieldPath)}, OptionalOldSelf:${optional}}`,
  );
}

/**
 * The compile and cost errors of every rule in a schema, at their x-kubernetes-validations paths,
 * then the schema's total cost if it passes the CRD's limit. `uncorrelatable` is the path of the
 * nearest enclosing atomic list, below which oldSelf cannot be used.
 */
export function schemaRuleErrors(s: Structural, fldPath: Path): ErrorList {
  const total = new TotalCost();
  const errs = nodeRuleErrors(s, fldPath, true, undefined, 1n, total);
  if (total.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of total.mostExpensive) errs.push(forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errs.push(forbidden(fldPath, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total.total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return errs;
}

/** `cardinality`: how many times this node can occur in an object, undefined when unbounded. */
function nodeRuleErrors(s: Structural, fldPath: Path, isRoot: boolean, uncorrelatable: Path | undefined, cardinality: bigint | undefined, total: TotalCost): ErrorList {
  const errs: ErrorList = [];
  if (s.validations.length > 0) {
    compiledRules(s, isRoot).forEach((c, i) => {
      const p = fldPath.child('x-kubernetes-validations').index(i);
      const cost = multiplyWithOverflowGuard(c.maxCost, cardinality ?? c.maxCardinality);
      if (cost > STATIC_ESTIMATED_COST_LIMIT) errs.push(forbidden(p.child('rule'), costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
      total.observe(p.child('rule'), cost);
      if (c.error !== undefined) errs.push(invalid(p.child('rule'), ruleValue(c.rule), c.error));
      if (c.messageError !== undefined) errs.push(invalid(p.child('messageExpression'), ruleValue(c.rule), c.messageError));
      else if (c.message) {
        if (c.messageMaxCost > STATIC_ESTIMATED_COST_LIMIT) errs.push(forbidden(p.child('messageExpression'), costErrorMessage('estimated messageExpression cost', c.messageMaxCost, STATIC_ESTIMATED_COST_LIMIT)));
        total.observe(p.child('messageExpression'), c.messageMaxCost);
      }
      if (c.usesOldSelf && uncorrelatable) errs.push(invalid(p.child('rule'), c.rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable.toString()}`));
      if (c.rule.optionalOldSelf !== undefined && !c.usesOldSelf) errs.push(invalid(p.child('optionalOldSelf'), c.rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    });
  }
  const children = maxChildren(s);
  const childCardinality = cardinality === undefined || children === undefined ? undefined : multiplyWithOverflowGuard(cardinality, children);
  for (const [name, prop] of [...s.properties].sort(([a], [b]) => (a < b ? -1 : 1))) errs.push(...nodeRuleErrors(prop, fldPath.child('properties').key(name), false, uncorrelatable, childCardinality, total));
  if (s.additionalProperties) errs.push(...nodeRuleErrors(s.additionalProperties, fldPath.child('additionalProperties'), false, uncorrelatable, childCardinality, total));
  if (s.items) {
    const atomic = s.listType !== 'map' && s.listType !== 'set';
    errs.push(...nodeRuleErrors(s.items, fldPath.child('items'), false, uncorrelatable ?? (atomic ? fldPath : undefined), childCardinality, total));
  }
  return errs;
}

/** A rule's fieldPath (`.spec.x`, `['a.b']`, `.list[0]`) as a path below the node. */
function ruleFieldPath(base: Path | undefined, fieldPath: string): Path | undefined {
  let p = base;
  for (const m of fieldPath.matchAll(/\.([^.[\]]+)|\[\s*'((?:\\.|[^'\\])*)'\s*\]|\[(\d+)\]/g)) {
    if (m[1] !== undefined) p = child(p, m[1]);
    else if (m[2] !== undefined) p = child(p, m[2].replace(/\\(.)/g, '$1'));
    else p = item(p, Number(m[3]));
  }
  return p;
}

function errorForReason(p: Path | undefined, value: unknown, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(p, detail);
    case 'FieldValueRequired':
      return required(p, detail);
    case 'FieldValueDuplicate':
      return duplicate(p, value);
    default:
      return invalid(p, value, detail);
  }
}

const ruleErrorString = (r: ValidationRule): string => (r.message.length > 0 ? r.message.trim() : r.rule.trim());

/** The type name kube-apiserver prints as the bad value of an evaluation error. */
const typeName = (s: Structural): string => s.type || (s.intOrString ? '' : '');

/** What is left of a custom resource's runtime cost budget (RuntimeCELCostBudget). */
interface Budget {
  remaining: number;
  /** Set once the budget or a per-call limit ran out: no further rules run. */
  stopped: boolean;
}

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

function evaluateRule(program: CelProgram, activation: Record<string, unknown>): { cost: number; ok?: boolean; value?: unknown; error?: string; limited?: boolean } {
  const tracker = new CostTracker(PER_CALL_LIMIT);
  try {
    const v = withTracker(tracker, () => program.evaluate(activation));
    return { cost: tracker.cost, ok: v === true, value: v };
  } catch (err) {
    return { cost: tracker.cost, error: err instanceof CelRuntimeError ? err.message : String((err as Error).message ?? err), limited: err instanceof CostLimitExceeded };
  }
}

const child = (p: Path | undefined, k: string): Path => (p ? p.child(k) : Path.root(k));
const item = (p: Path | undefined, i: number): Path => (p ? p.index(i) : Path.root(`[${i}]`));

function validateNode(s: Structural, isRoot: boolean, value: JsonValue, old: JsonValue | undefined, p: Path | undefined, errs: ErrorList, budget: Budget): void {
  if (budget.stopped) return;
  if (s.validations.length > 0) {
    if (budget.remaining <= 0) {
      errs.push(invalid(p, typeName(s), OUT_OF_BUDGET));
      budget.stopped = true;
      return;
    }
    const node = isRoot ? withTypeAndObjectMeta(s) : s;
    const self = typedValue(value, node);
    const oldSelf = old === undefined ? undefined : typedValue(old, node);
    const unchanged = old !== undefined && semanticEqual(value, old);
    for (const c of compiledRules(s, isRoot)) {
      if (c.error !== undefined) {
        errs.push(invalid(p, typeName(s), `rule compile error: ${c.error}`));
        continue;
      }
      if (c.usesOldSelf && old === undefined && !c.rule.optionalOldSelf) continue;
      const activation = dict<unknown>();
      setTyped(activation, 'self', self);
      setTyped(activation, 'oldSelf', c.rule.optionalOldSelf ? (old === undefined ? Optional.none() : Optional.of(oldSelf)) : (oldSelf ?? null));
      const r = evaluateRule(c.program!, activation);
      if (r.cost > budget.remaining) {
        errs.push(invalid(p, typeName(s), OUT_OF_BUDGET));
        budget.stopped = true;
        return;
      }
      budget.remaining -= r.cost;
      if (r.error !== undefined) {
        if (r.limited) {
          errs.push(invalid(p, typeName(s), `'${r.error}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(c.rule)}`));
          budget.stopped = true;
          return;
        }
        const detail = r.error.startsWith('no such overload')
          ? `'${r.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(c.rule)}`
          : `${r.error} evaluating rule: ${ruleErrorString(c.rule)}`;
        errs.push(invalid(p, typeName(s), detail));
        continue;
      }
      if (r.ok) continue;
      // validation ratcheting: an unchanged value keeps passing non-transition rules
      if (!c.usesOldSelf && unchanged) continue;
      const at = c.rule.fieldPath ? ruleFieldPath(p, c.rule.fieldPath) : p;
      let detail: string | undefined;
      if (c.message) {
        const m = evaluateRule(c.message, activation);
        if (m.cost > budget.remaining || m.limited) {
          const why = m.limited ? `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(c.rule.messageExpression)}` : 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run';
          errs.push(invalid(at, typeName(s), why));
          budget.stopped = true;
          return;
        }
        budget.remaining -= m.cost;
        // a failed messageExpression falls back to the message
        if (m.error === undefined && typeof m.value === 'string' && m.value.trim() !== '' && !m.value.includes('\n')) detail = m.value.trim();
      }
      detail ??= c.rule.message.length > 0 ? c.rule.message.trim() : `failed rule: ${ruleErrorString(c.rule)}`;
      const bad = s.type === 'object' || s.type === 'array' ? OMIT : value;
      errs.push(errorForReason(at, bad, detail, c.rule.reason));
    }
  }
  if (Array.isArray(value) && s.items) {
    const oldList = Array.isArray(old) ? old : undefined;
    for (let i = 0; i < value.length; i++) {
      const x = value[i]!;
      let o: JsonValue | undefined;
      if (oldList && s.listType === 'map' && isObject(x)) o = oldList.find((y) => isObject(y) && s.listMapKeys.every((k) => semanticEqual(own(y, k), own(x, k))));
      else if (oldList && s.listType === 'set') o = oldList.find((y) => semanticEqual(y, x));
      validateNode(s.items, false, x, o, item(p, i), errs, budget);
    }
  } else if (isObject(value)) {
    const oldObj = isObject(old) ? old : undefined;
    for (const k of Object.keys(value).sort()) {
      const prop = s.properties.get(k) ?? s.additionalProperties;
      const x = value[k];
      if (!prop || x === undefined || x === null) continue;
      if (!hasRules(prop)) continue;
      validateNode(prop, false, x, own(oldObj, k), child(p, k), errs, budget);
    }
  }
}

const hasRulesCache = new WeakMap<Structural, boolean>();
/** Whether a schema node or any node below it declares rules. */
export function hasRules(s: Structural): boolean {
  const hit = hasRulesCache.get(s);
  if (hit !== undefined) return hit;
  const r = s.validations.length > 0 || [...s.properties.values()].some(hasRules) || (s.additionalProperties ? hasRules(s.additionalProperties) : false) || (s.items ? hasRules(s.items) : false);
  hasRulesCache.set(s, r);
  return r;
}

/** The rule errors of a custom resource (or of its status, with `prefix` status). */
export function validateRules(s: Structural, value: JsonValue, old: JsonValue | undefined, prefix?: Path): ErrorList {
  if (!hasRules(s)) return [];
  const errs: ErrorList = [];
  // the root's own rules report at the root, whose field name is empty
  validateNode(s, prefix === undefined, value, old, prefix, errs, { remaining: RUNTIME_CEL_COST_BUDGET, stopped: false });
  return errs;
}
