/**
 * One policy evaluated for one request and one parameter (validating/validator.go): the
 * matchConditions (a false one means the policy does not apply; errors follow failurePolicy),
 * then each validation, its message (messageExpression, else message, else "failed expression:
 * ..."), and the audit annotations. Variables evaluate lazily, once, when an expression uses them.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import type { CelProgram } from '../../../cel/compile';
import { CostTracker, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET, RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS, withTracker } from '../../../cel/cost';
import { CelRuntimeError } from '../../../cel/values';
import type { CompiledExpression, CompiledPolicy } from './compile';

export interface Decision {
  readonly action: 'admit' | 'deny';
  readonly evaluation: 'admit' | 'deny' | 'error';
  readonly message: string;
  readonly reason?: string;
}

export interface AuditAnnotationResult {
  readonly key: string;
  readonly action: 'publish' | 'exclude' | 'error';
  readonly value?: string;
  readonly error?: string;
}

export interface ValidateResult {
  readonly decisions: Decision[];
  readonly auditAnnotations: AuditAnnotationResult[];
}

const MAX_MESSAGE_BYTES = 5 * 1024;

/** The CEL type name of a value, as cel-go prints it in an error. */
function celTypeOf(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Uint8Array) return 'bytes';
  return 'map';
}

type Outcome = { value: unknown } | { error: string; outOfBudget?: true };

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

/**
 * A runtime cost budget shared by the expressions of one evaluation (RuntimeCELCostBudget per
 * binding and parameter; RuntimeCELCostBudgetMatchConditions for matchConditions). `composition`
 * collects what lazily evaluated variables cost while an expression runs.
 */
interface Budget {
  remaining: number;
  composition: number;
}

const budget = (n: number): Budget => ({ remaining: n, composition: 0 });

/**
 * Evaluates one compiled expression (cel-go's per-call cost limit, then the budget): its value,
 * or the error kube-apiserver reports for it.
 */
async function run(c: CompiledExpression, activation: Record<string, unknown>, b: Budget): Promise<Outcome> {
  if (c.error !== undefined) return { error: `compilation error: ${c.error}` };
  const tracker = new CostTracker(PER_CALL_LIMIT);
  let out: Outcome;
  const composition = b.composition;
  try {
    out = { value: await withTracker(tracker, () => (c.program as CelProgram).evaluate(activation)) };
  } catch (err) {
    const msg = err instanceof CelRuntimeError ? err.message : String((err as Error).message ?? err);
    out = { error: `expression '${c.expression}' resulted in error: ${msg}` };
  }
  const variablesCost = b.composition - composition;
  if (variablesCost > b.remaining) return { error: OUT_OF_BUDGET, outOfBudget: true };
  b.remaining -= variablesCost;
  if (tracker.cost > b.remaining) return { error: OUT_OF_BUDGET, outOfBudget: true };
  b.remaining -= tracker.cost;
  return out;
}

/** Whether an expression calls the authorizer, itself or through the variables it uses. */
function usesAuthorizer(ast: ASTNode, authzVariables: ReadonlySet<string>): boolean {
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const n = stack.pop();
    if (!n || typeof n !== 'object') continue;
    if (Array.isArray(n)) {
      stack.push(...n);
      continue;
    }
    const node = n as ASTNode;
    if (!('op' in node)) continue;
    if (node.op === 'id' && node.args === 'authorizer') return true;
    if (node.op === '.' || node.op === '.?') {
      const [operand, field] = node.args;
      if (operand.op === 'id' && operand.args === 'variables' && authzVariables.has(field)) return true;
    }
    stack.push(node.args);
  }
  return false;
}

interface Variables {
  readonly activation: Record<string, unknown>;
  /** Evaluates, before the expressions run, the variables that call the (asynchronous) authorizer. */
  prepare(): Promise<void>;
  /** Where the variables' cost goes: the budget of the expressions being evaluated. */
  charge: { budget: Budget };
}

/** The `variables` of one evaluation: each evaluates on first use, its error surfacing where used. */
function variablesFor(policy: CompiledPolicy, base: Record<string, unknown>): Variables {
  const cache = new Map<string, { value?: unknown; error?: string }>();
  const activation: Record<string, unknown> = { ...base };
  const charge = { budget: budget(RUNTIME_CEL_COST_BUDGET) };
  const settle = (name: string, value: unknown, tracker: CostTracker): void => {
    charge.budget.composition += tracker.cost;
    cache.set(name, { value });
  };
  const fail = (name: string, err: unknown, tracker: CostTracker): void => {
    charge.budget.composition += tracker.cost;
    cache.set(name, { error: `composited variable "${name}" fails to evaluate: ${(err as Error).message}` });
  };
  const compileError = (name: string, error: string): void => {
    cache.set(name, { error: `composited variable "${name}" fails to compile: ${error}` });
  };
  activation['variables'] = policy.newVariables((name) => {
    let hit = cache.get(name);
    if (!hit) {
      const v = policy.variables.find((x) => x.name === name)!;
      if (v.compiled.error !== undefined) compileError(name, v.compiled.error);
      else {
        const tracker = new CostTracker(PER_CALL_LIMIT);
        try {
          const value = withTracker(tracker, () => v.compiled.program!.evaluate(activation));
          if (value instanceof Promise) throw new CelRuntimeError('asynchronous functions are not supported in variables');
          settle(name, value, tracker);
        } catch (err) {
          fail(name, err, tracker);
        }
      }
      hit = cache.get(name)!;
    }
    if (hit.error !== undefined) throw new CelRuntimeError(hit.error);
    return hit.value;
  });
  const authzVariables = new Set<string>();
  for (const v of policy.variables) if (v.compiled.program && usesAuthorizer(v.compiled.program.ast, authzVariables)) authzVariables.add(v.name);
  return {
    activation,
    charge,
    async prepare() {
      // the authorizer answers asynchronously, so these variables are evaluated up front (in
      // declaration order) and their values or errors served from the cache where used
      for (const v of policy.variables) {
        if (!authzVariables.has(v.name) || cache.has(v.name)) continue;
        const tracker = new CostTracker(PER_CALL_LIMIT);
        try {
          settle(v.name, await withTracker(tracker, () => v.compiled.program!.evaluate(activation)), tracker);
        } catch (err) {
          fail(v.name, err, tracker);
        }
      }
    },
  };
}

export interface MatchConditionsResult {
  readonly matches: boolean;
  readonly error?: string;
}

async function matchConditions(policy: CompiledPolicy, vars: Variables, failurePolicy: string): Promise<MatchConditionsResult> {
  const errors: string[] = [];
  const b = budget(RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS);
  vars.charge.budget = b;
  for (const m of policy.matchConditions) {
    const r = await run(m.condition, vars.activation, b);
    if ('outOfBudget' in r) return failurePolicy === 'Ignore' ? { matches: false } : { matches: false, error: r.error };
    if ('error' in r) {
      errors.push(r.error);
      continue;
    }
    if (r.value === false) return { matches: false };
  }
  if (errors.length === 0) return { matches: true };
  if (failurePolicy === 'Ignore') return { matches: false };
  return { matches: false, error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}

export async function validate(policy: CompiledPolicy, base: Record<string, unknown>, failurePolicy: string): Promise<ValidateResult> {
  const vars = variablesFor(policy, base);
  await vars.prepare();
  const activation = vars.activation;
  const onError = failurePolicy === 'Ignore' ? 'admit' : 'deny';
  const mc = await matchConditions(policy, vars, failurePolicy);
  if (mc.error !== undefined) return { decisions: [{ action: onError, evaluation: 'error', message: mc.error }], auditAnnotations: [] };
  if (!mc.matches) return { decisions: [], auditAnnotations: [] };

  const b = budget(RUNTIME_CEL_COST_BUDGET);
  vars.charge.budget = b;
  const results: Outcome[] = [];
  for (const v of policy.validations) {
    const r = await run(v.condition, activation, b);
    if ('outOfBudget' in r) return { decisions: [{ action: onError, evaluation: 'error', message: r.error }], auditAnnotations: [] };
    results.push(r);
  }
  // the messageExpressions run next, on what is left of the budget; they do not see the authorizer
  const messageActivation = { ...activation, authorizer: undefined };
  const messages: (Outcome | undefined)[] = [];
  let messageBudgetError: string | undefined;
  for (const v of policy.validations) {
    if (!v.messageExpression || messageBudgetError !== undefined) {
      messages.push(undefined);
      continue;
    }
    const m = await run(v.messageExpression, messageActivation, b);
    if ('outOfBudget' in m) messageBudgetError = m.error;
    messages.push(m);
  }
  const decisions: Decision[] = [];
  policy.validations.forEach((v, i) => {
    const r = results[i]!;
    if ('error' in r) {
      decisions.push({ action: onError, evaluation: 'error', message: r.error });
      return;
    }
    if (messageBudgetError !== undefined) {
      decisions.push({ action: onError, evaluation: 'error', message: `failed messageExpression: ${messageBudgetError}` });
      return;
    }
    if (r.value === true) {
      decisions.push({ action: 'admit', evaluation: 'admit', message: '' });
      return;
    }
    let message = '';
    if (v.messageExpression) {
      const m = messages[i]!;
      if ('value' in m && typeof m.value === 'string') {
        message = m.value.trim();
        if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES || message.includes('\n')) message = '';
      }
    }
    if (message === '' && v.message.length > 0) message = v.message.trim();
    if (message === '') message = `failed expression: ${v.condition.expression.trim()}`;
    decisions.push({ action: 'deny', evaluation: 'deny', message, reason: v.reason ?? 'Invalid' });
  });

  const auditAnnotations: AuditAnnotationResult[] = [];
  const ab = budget(RUNTIME_CEL_COST_BUDGET);
  vars.charge.budget = ab;
  for (const a of policy.auditAnnotations) {
    const r = await run(a.value, activation, ab);
    if ('outOfBudget' in r) break;
    if ('error' in r) {
      auditAnnotations.push({ key: a.key, action: failurePolicy === 'Ignore' ? 'exclude' : 'error', error: r.error });
    } else if (typeof r.value === 'string') {
      const value = r.value.trim();
      auditAnnotations.push(value === '' ? { key: a.key, action: 'exclude' } : { key: a.key, action: 'publish', value });
    } else if (r.value === null) {
      auditAnnotations.push({ key: a.key, action: 'exclude' });
    } else {
      auditAnnotations.push({ key: a.key, action: 'error', error: `valueExpression '${a.value.expression}' resulted in unsupported return type: ${celTypeOf(r.value)}. Return type must be either string or null.` });
    }
  }
  return { decisions, auditAnnotations };
}
