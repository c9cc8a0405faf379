/**
 * A ValidatingAdmissionPolicy's expressions compiled as kube-apiserver compiles them, both when
 * the policy is written (validation: the field errors) and when it is enforced (the programs):
 * matchConditions and validations must evaluate to bool, messageExpressions to string,
 * auditAnnotation valueExpressions to string or null; variables are compiled in order, each
 * seeing the ones before it under `variables` with the type its expression has.
 */
import { invalid, type ErrorList, type FieldError, type Path } from '../../../api/field';
import { admissionEnvironment, type VariableDeclarations } from '../../../cel/admission';
import { compile, type CelProgram, type CompileResult } from '../../../cel/compile';
import { obj, objs, str } from '../../validation/core/json';

export interface CompiledExpression {
  readonly expression: string;
  readonly program?: CelProgram;
  /** The compile error's detail (`compilation failed: ...`, `must evaluate to bool but got int`). */
  readonly error?: string;
}

export interface CompiledValidation {
  readonly condition: CompiledExpression;
  readonly message: string;
  readonly messageExpression?: CompiledExpression;
  readonly reason?: string;
}

export interface CompiledPolicy {
  /** Compile errors, in the order kube-apiserver's validation reports them. */
  readonly errors: ErrorList;
  /** The compile error of each field path that has one. */
  readonly errorAt: ReadonlyMap<string, FieldError>;
  readonly hasParams: boolean;
  readonly matchConditions: ReadonlyArray<{ name: string; condition: CompiledExpression }>;
  readonly variables: ReadonlyArray<{ name: string; compiled: CompiledExpression }>;
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: ReadonlyArray<{ key: string; value: CompiledExpression }>;
  /** Makes the `variables` object of one evaluation, whose fields evaluate on first use. */
  newVariables(evaluate: (name: string) => unknown): object;
}

const EVAL = Symbol('evaluate');

/** The `variables` object's class: one getter per variable, evaluating once per request. */
function variablesClass(names: readonly string[]): new () => object {
  const C = class Variables {
    [EVAL]: (name: string) => unknown = () => undefined;
  };
  for (const name of names) {
    Object.defineProperty(C.prototype, name, {
      get(this: { [EVAL]: (n: string) => unknown }) {
        return this[EVAL](name);
      },
    });
  }
  return C;
}

function toCompiled(expression: string, r: CompileResult): CompiledExpression {
  return r.ok ? { expression, program: r.program } : { expression, error: r.error };
}

export interface CompileOptions {
  /** Policy updates that leave matchConditions and paramKind alone do not recheck them. */
  readonly ignoreMatchConditionErrors?: boolean;
}

export function compilePolicy(spec: Record<string, unknown>, fldPath: Path, opts: CompileOptions = {}): CompiledPolicy {
  const errors: ErrorList = [];
  const hasParams = obj(spec['paramKind']) !== undefined;
  const report = (path: Path, c: CompiledExpression): void => {
    if (c.error !== undefined) errors.push(invalid(path, c.expression, c.error));
  };

  // variables first: every later expression may refer to them
  const varDefs = objs(spec['variables']);
  const types = new Map<string, string>();
  const variables: { name: string; compiled: CompiledExpression }[] = [];
  varDefs.forEach((v, i) => {
    const name = str(v['name']);
    const expression = str(v['expression']);
    if (expression.trim() === '') return;
    const env = admissionEnvironment({ hasParams, hasAuthorizer: true }, { types: new Map(types), ctor: variablesClass([...types.keys()]) });
    const r = compile(env, expression);
    const compiled = toCompiled(expression, r);
    report(fldPath.child('variables').index(i).child('expression'), compiled);
    types.set(name, r.ok ? r.outputLibraryType : 'dyn');
    variables.push({ name, compiled });
  });
  const ctor = variablesClass([...types.keys()]);
  const decls: VariableDeclarations = { types, ctor };
  const envWithAuthz = admissionEnvironment({ hasParams, hasAuthorizer: true }, decls);
  const envForMessages = admissionEnvironment({ hasParams, hasAuthorizer: false }, decls);

  const matchConditions = objs(spec['matchConditions']).map((m, i) => {
    const expression = str(m['expression']).trim();
    const condition = expression === '' ? { expression } : toCompiled(expression, compile(envWithAuthz, expression, { returns: ['bool'] }));
    if (!opts.ignoreMatchConditionErrors) report(fldPath.child('matchConditions').index(i).child('expression'), condition);
    return { name: str(m['name']), condition };
  });

  const validations = objs(spec['validations']).map((v, i) => {
    const p = fldPath.child('validations').index(i);
    const expression = str(v['expression']);
    const condition = expression.trim() === '' ? { expression } : toCompiled(expression, compile(envWithAuthz, expression, { returns: ['bool'] }));
    report(p.child('expression'), condition);
    const me = str(v['messageExpression']);
    let messageExpression: CompiledExpression | undefined;
    if (me.trim() !== '') {
      messageExpression = toCompiled(me, compile(envForMessages, me, { returns: ['string'] }));
      report(p.child('messageExpression'), messageExpression);
    }
    const reason = typeof v['reason'] === 'string' ? (v['reason'] as string) : undefined;
    return { condition, message: str(v['message']), ...(messageExpression ? { messageExpression } : {}), ...(reason ? { reason } : {}) };
  });

  const auditAnnotations = objs(spec['auditAnnotations']).map((a, i) => {
    const expression = str(a['valueExpression']).trim();
    const value = expression === '' || Buffer.byteLength(expression) > 5 * 1024 ? { expression } : toCompiled(expression, compile(envWithAuthz, expression, { returns: ['string', 'null_type'] }));
    if (value.error !== undefined) errors.push(invalid(fldPath.child('auditAnnotations').index(i).child('valueExpression'), str(a['valueExpression']), value.error));
    return { key: str(a['key']), value };
  });

  return {
    errors,
    errorAt: new Map(errors.map((e) => [e.field, e])),
    hasParams,
    matchConditions,
    variables,
    validations,
    auditAnnotations,
    newVariables(evaluate) {
      const v = new ctor() as { [EVAL]: (name: string) => unknown };
      v[EVAL] = evaluate;
      return v;
    },
  };
}

/** Webhook matchConditions: no params, the authorizer, bool. The compile error of each, by index. */
export function compileWebhookMatchConditions(conditions: unknown, fldPath: Path): (i: number) => FieldError | undefined {
  const env = admissionEnvironment({ hasParams: false, hasAuthorizer: true });
  const list = objs(conditions);
  return (i) => {
    const expression = str(list[i]?.['expression']).trim();
    if (expression === '') return undefined;
    const r = compile(env, expression, { returns: ['bool'] });
    return r.ok ? undefined : invalid(fldPath.index(i).child('expression'), expression, r.error);
  };
}
