/**
 * cel-go's two-variable comprehensions (ext.TwoVarComprehensions, on in Kubernetes since 1.32):
 * all(i, v, p), exists(i, v, p), existsOne(i, v, p), transformList(i, v, [p,] t),
 * transformMap(k, v, [p,] t), transformMapEntry(k, v, [p,] e); and the optional library's
 * optMap(x, t), optFlatMap(x, t) and optional.ofNonZeroValue(v). Each is a macro of the CEL
 * library: it type-checks its body with the iteration variables declared and runs it per element.
 */
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { celError } from '../values';
import { dict, setOwn } from '../../api/own';

interface TypeDecl {
  kind: string;
  name: string;
  keyType?: TypeDecl;
  valueType?: TypeDecl;
}
interface Checker {
  check(node: ASTNode, ctx: Ctx): TypeDecl;
  getType(name: string): TypeDecl;
  registry: { getListType(t: TypeDecl): TypeDecl; getMapType(k: TypeDecl, v: TypeDecl): TypeDecl };
  createError(code: string, message: string, node?: ASTNode): Error;
}
interface Evaluator {
  run(node: ASTNode, ctx: Ctx): unknown;
  getType(name: string): TypeDecl;
}
interface Ctx {
  forkWithVariable(name: string, type: TypeDecl): Ctx & { setIterValue(v: unknown, ev: Evaluator): Ctx };
}
interface MacroInput {
  args: ASTNode[];
  receiver: ASTNode | null;
}

const varName = (n: ASTNode): string => (n.op === 'id' ? (n.args as string) : '');

/** The (index or key, value) pairs a list or map iterates over. */
function pairs(v: unknown): [unknown, unknown][] {
  if (Array.isArray(v)) return v.map((x, i) => [BigInt(i), x]);
  if (v instanceof Map) return [...v];
  if (v && typeof v === 'object') return Object.entries(v);
  throw celError(`expression of type '${typeof v}' cannot be range of a comprehension (must be list, map, or dynamic)`);
}

function iterTypes(chk: Checker, t: TypeDecl): [TypeDecl, TypeDecl] {
  if (t.kind === 'list') return [chk.getType('int'), t.valueType ?? chk.getType('dyn')];
  if (t.kind === 'map') return [t.keyType ?? chk.getType('dyn'), t.valueType ?? chk.getType('dyn')];
  return [chk.getType('dyn'), chk.getType('dyn')];
}

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

function twoVar(kind: Kind, filtered: boolean) {
  return ({ args, receiver }: MacroInput) => {
    const [iVar, vVar] = [varName(args[0]!), varName(args[1]!)];
    const predicate = filtered || kind === 'all' || kind === 'exists' || kind === 'existsOne' ? args[2]! : undefined;
    const transform = kind.startsWith('transform') ? args[filtered ? 3 : 2]! : undefined;
    // the checked iteration types, so that values are typed (plain objects as their object types) as the body was checked
    let checked: [TypeDecl, TypeDecl] | undefined;
    return {
      async: false,
      typeCheck(chk: Checker, _m: unknown, ctx: Ctx) {
        const rt = chk.check(receiver!, ctx);
        const [it, vt] = iterTypes(chk, rt);
        checked = [it, vt];
        const inner = ctx.forkWithVariable(iVar, it).forkWithVariable(vVar, vt);
        if (predicate) {
          const pt = chk.check(predicate, inner);
          if (pt.name !== 'bool' && pt.kind !== 'dyn') throw chk.createError('invalid_condition_type', `${kind}(var, var, predicate) predicate must return bool, got '${pt.name}'`, predicate);
        }
        if (!transform) return chk.getType('bool');
        const tt = chk.check(transform, inner);
        if (kind === 'transformList') return chk.registry.getListType(tt);
        if (kind === 'transformMap') return chk.registry.getMapType(it, tt);
        return tt.kind === 'map' ? tt : chk.getType('map<dyn, dyn>');
      },
      evaluate(ev: Evaluator, _m: unknown, ctx: Ctx) {
        const dyn = ev.getType('dyn');
        const outer = ctx.forkWithVariable(iVar, checked?.[0] ?? dyn);
        const inner = outer.forkWithVariable(vVar, checked?.[1] ?? dyn);
        const test = (): boolean => {
          const r = ev.run(predicate!, inner);
          if (typeof r !== 'boolean') throw celError('no such overload');
          return r;
        };
        let count = 0;
        let lastError: unknown;
        const list: unknown[] = [];
        const map = dict<unknown>();
        for (const [i, v] of pairs(ev.run(receiver!, ctx))) {
          outer.setIterValue(i, ev);
          inner.setIterValue(v, ev);
          if (kind === 'all' || kind === 'exists') {
            // errors are absorbed when another element decides the result, as in cel-go
            try {
              const r = test();
              if (kind === 'all' && !r) return false;
              if (kind === 'exists' && r) return true;
            } catch (err) {
              lastError = err;
            }
            continue;
          }
          if (kind === 'existsOne') {
            if (test()) count++;
            continue;
          }
          if (filtered && !test()) continue;
          const t = ev.run(transform!, inner);
          if (kind === 'transformList') list.push(t);
          else if (kind === 'transformMap') setOwn(map, String(i), t);
          else for (const [k, x] of pairs(t)) setOwn(map, String(k), x);
        }
        if (lastError) throw lastError;
        if (kind === 'all') return true;
        if (kind === 'exists') return false;
        if (kind === 'existsOne') return count === 1;
        return kind === 'transformList' ? list : map;
      },
    };
  };
}

function optMap(flat: boolean) {
  return ({ args, receiver }: MacroInput) => {
    const x = varName(args[0]!);
    const body = args[1]!;
    let checked: TypeDecl | undefined;
    return {
      async: false,
      typeCheck(chk: Checker, _m: unknown, ctx: Ctx) {
        const rt = chk.check(receiver!, ctx);
        const inner = rt.kind === 'optional' && rt.valueType ? rt.valueType : chk.getType('dyn');
        checked = inner;
        const bt = chk.check(body, ctx.forkWithVariable(x, inner));
        return flat ? bt : chk.getType(`optional<${bt.name}>`);
      },
      evaluate(ev: Evaluator, _m: unknown, ctx: Ctx) {
        const o = ev.run(receiver!, ctx) as Optional;
        if (!(o instanceof Optional)) throw celError('no such overload');
        if (!o.hasValue()) return Optional.none();
        const c = ctx.forkWithVariable(x, checked ?? ev.getType('dyn')).setIterValue(o.value(), ev);
        const r = ev.run(body, c);
        return flat ? r : Optional.of(r);
      },
    };
  };
}

function isZero(v: unknown): boolean {
  if (v === null || v === false || v === 0 || v === 0n || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof Uint8Array) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  if (v && typeof v === 'object' && (v.constructor === undefined || v.constructor === Object)) return Object.keys(v).length === 0;
  return false;
}

export function registerComprehensions(env: Environment): void {
  for (const r of ['list', 'map']) {
    env
      .registerFunction(`${r}.all(ast, ast, ast): bool`, twoVar('all', false))
      .registerFunction(`${r}.exists(ast, ast, ast): bool`, twoVar('exists', false))
      .registerFunction(`${r}.existsOne(ast, ast, ast): bool`, twoVar('existsOne', false))
      .registerFunction(`${r}.transformList(ast, ast, ast): list<dyn>`, twoVar('transformList', false))
      .registerFunction(`${r}.transformList(ast, ast, ast, ast): list<dyn>`, twoVar('transformList', true))
      .registerFunction(`${r}.transformMap(ast, ast, ast): map<dyn, dyn>`, twoVar('transformMap', false))
      .registerFunction(`${r}.transformMap(ast, ast, ast, ast): map<dyn, dyn>`, twoVar('transformMap', true))
      .registerFunction(`${r}.transformMapEntry(ast, ast, ast): map<dyn, dyn>`, twoVar('transformMapEntry', false))
      .registerFunction(`${r}.transformMapEntry(ast, ast, ast, ast): map<dyn, dyn>`, twoVar('transformMapEntry', true));
  }
  env
    .registerFunction('list.existsOne(ast, ast): bool', ({ args, receiver }: MacroInput) => existsOneAlias(args, receiver))
    .registerFunction('optional.optMap(ast, ast): optional<dyn>', optMap(false))
    .registerFunction('optional.optFlatMap(ast, ast): optional<dyn>', optMap(true))
    .registerFunction('OptionalNamespace.ofNonZeroValue(A): optional<A>', (_ns: unknown, v: unknown) => (isZero(v) ? Optional.none() : Optional.of(v)));
}

/** cel-go spells exists_one also existsOne. */
function existsOneAlias(args: ASTNode[], receiver: ASTNode | null) {
  const x = varName(args[0]!);
  const p = args[1]!;
  return {
    async: false,
    typeCheck(chk: Checker, _m: unknown, ctx: Ctx) {
      const rt = chk.check(receiver!, ctx);
      const [, vt] = iterTypes(chk, rt);
      chk.check(p, ctx.forkWithVariable(x, rt.kind === 'map' ? (rt.keyType ?? vt) : vt));
      return chk.getType('bool');
    },
    evaluate(ev: Evaluator, _m: unknown, ctx: Ctx) {
      const v = ev.run(receiver!, ctx);
      const items = Array.isArray(v) ? v : pairs(v).map(([k]) => k);
      const c = ctx.forkWithVariable(x, ev.getType('dyn'));
      let n = 0;
      for (const it of items) if (ev.run(p, c.setIterValue(it, ev)) === true) n++;
      return n === 1;
    },
  };
}
