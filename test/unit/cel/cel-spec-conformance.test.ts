/**
 * The cel-spec conformance suite (google/cel-spec tests/simple/testdata, as @bufbuild/cel-spec
 * ships it) run through kubesim's CEL: each case is compiled in the Kubernetes environment with
 * the case's declarations and evaluated with its bindings. Suites about protocol buffer messages
 * and extensions Kubernetes 1.35 does not enable are left out; the pass rate of the rest is
 * printed and must not fall below the recorded floor (docs/benchmarks.md has the figures).
 */
import * as assert from 'node:assert/strict';
import { getConformanceSuite, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { compile } from '../../../src/engine/cel/compile';
import { extendEnvironment } from '../../../src/engine/cel/environment';
import { isUint, DurationClass } from '../../../src/engine/cel/values';
import { evaluate as libEvaluate } from '@marcbachmann/cel-js';

type N =
  | { t: 'null' }
  | { t: 'bool'; v: boolean }
  | { t: 'int' | 'uint'; v: bigint }
  | { t: 'double'; v: number }
  | { t: 'string'; v: string }
  | { t: 'bytes'; v: Uint8Array }
  | { t: 'list'; v: N[] }
  | { t: 'map'; v: [N, N][] }
  | { t: 'type'; v: string }
  | { t: 'unsupported' };

interface ValueMsg {
  kind: { case: string | undefined; value: unknown };
}
function fromValue(val: ValueMsg): N {
  const k = val.kind;
  switch (k.case) {
    case 'nullValue': return { t: 'null' };
    case 'boolValue': return { t: 'bool', v: k.value as boolean };
    case 'int64Value': return { t: 'int', v: BigInt(k.value as bigint) };
    case 'uint64Value': return { t: 'uint', v: BigInt(k.value as bigint) };
    case 'doubleValue': return { t: 'double', v: k.value as number };
    case 'stringValue': return { t: 'string', v: k.value as string };
    case 'bytesValue': return { t: 'bytes', v: k.value as Uint8Array };
    case 'listValue': return { t: 'list', v: (k.value as { values: ValueMsg[] }).values.map(fromValue) };
    case 'mapValue': return { t: 'map', v: (k.value as { entries: { key: ValueMsg; value: ValueMsg }[] }).entries.map((e) => [fromValue(e.key), fromValue(e.value)] as [N, N]) };
    case 'typeValue': return { t: 'type', v: k.value as string };
    default: return { t: 'unsupported' };
  }
}

const UintCtor = (libEvaluate('0u') as object).constructor as new (v: bigint) => unknown;
function toLib(n: N): unknown {
  switch (n.t) {
    case 'null': return null;
    case 'uint': return new UintCtor(n.v);
    case 'list': return n.v.map(toLib);
    case 'map': return new Map(n.v.map(([k, v]) => [toLib(k), toLib(v)]));
    case 'unsupported': case 'type': throw new Error('unsupported binding');
    default: return n.v;
  }
}
function fromLib(v: unknown): N {
  if (v === null) return { t: 'null' };
  if (typeof v === 'bigint') return { t: 'int', v };
  if (typeof v === 'number') return { t: 'double', v };
  if (typeof v === 'string') return { t: 'string', v };
  if (typeof v === 'boolean') return { t: 'bool', v };
  if (v instanceof Uint8Array) return { t: 'bytes', v };
  if (isUint(v)) return { t: 'uint', v: v.value };
  if (Array.isArray(v)) return { t: 'list', v: v.map(fromLib) };
  if (v instanceof Map) return { t: 'map', v: [...v].map(([k, x]) => [fromLib(k), fromLib(x)] as [N, N]) };
  if (v instanceof DurationClass) return { t: 'unsupported' };
  if (v && typeof v === 'object' && v.constructor?.name === 'Type') return { t: 'type', v: String(v).replace(/^Type<(.*)>$/, '$1') };
  if (v && typeof v === 'object' && (v.constructor === undefined || v.constructor === Object)) return { t: 'map', v: Object.entries(v).map(([k, x]) => [{ t: 'string', v: k }, fromLib(x)] as [N, N]) };
  return { t: 'unsupported' };
}
function eq(a: N, b: N): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'null': return true;
    case 'double': return Object.is(a.v, (b as typeof a).v) || a.v === (b as typeof a).v;
    case 'bytes': return a.v.length === (b as typeof a).v.length && a.v.every((x, i) => x === (b as typeof a).v[i]);
    case 'list': return a.v.length === (b as typeof a).v.length && a.v.every((x, i) => eq(x, (b as typeof a).v[i]!));
    case 'map': return a.v.length === (b as typeof a).v.length && a.v.every(([k, v]) => (b as typeof a).v.some(([k2, v2]) => eq(k, k2) && eq(v, v2)));
    case 'unsupported': return false;
    default: return a.v === (b as { v: unknown }).v;
  }
}

interface TypeMsg { typeKind: { case: string; value: unknown } }
function typeName(pt: TypeMsg): string {
  const k = pt.typeKind;
  switch (k.case) {
    case 'primitive': return ['', 'bool', 'int', 'uint', 'double', 'string', 'bytes'][k.value as number]!;
    case 'dyn': return 'dyn';
    case 'null': return 'null';
    case 'listType': return `list<${typeName((k.value as { elemType: TypeMsg }).elemType)}>`;
    case 'mapType': return `map<${typeName((k.value as { keyType: TypeMsg }).keyType)}, ${typeName((k.value as { valueType: TypeMsg }).valueType)}>`;
    case 'wellKnown': return ['', 'dyn', 'google.protobuf.Timestamp', 'google.protobuf.Duration'][k.value as number]!;
    case 'type': return 'type';
    default: throw new Error('unsupported type ' + k.case);
  }
}

interface Case {
  name: string; expr: string; disableCheck: boolean; checkOnly: boolean; container: string;
  typeEnv: { name: string; declKind: { case: string; value: { type: TypeMsg } } }[];
  bindings: Record<string, { kind: { case: string; value: ValueMsg } }>;
  resultMatcher: { case: string | undefined; value: unknown };
}

/** Runs one case; true when kubesim's answer is the expected one. */
async function run(c: Case): Promise<boolean> {
  if (c.container) return false;
  const variables: Record<string, string> = {};
  for (const d of c.typeEnv) {
    if (d.declKind.case !== 'ident') return false;
    try {
      variables[d.name] = c.disableCheck ? 'dyn' : typeName(d.declKind.value.type);
    } catch {
      return false;
    }
  }
  for (const name of Object.keys(c.bindings)) variables[name] ??= 'dyn';
  let r;
  try {
    r = compile(extendEnvironment({ variables }), c.expr);
  } catch {
    return false;
  }
  const m = c.resultMatcher;
  if (!r.ok) return false;
  if (c.checkOnly) return true;
  const ctx: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c.bindings)) ctx[k] = toLib(fromValue(v.kind.value));
  let out: unknown;
  try {
    out = await r.program.evaluate(ctx);
  } catch {
    return m.case === 'evalError' || m.case === 'anyEvalErrors';
  }
  if (m.case === 'evalError' || m.case === 'anyEvalErrors') return false;
  if (m.case === undefined) return out === true;
  if (m.case === 'value') return eq(fromLib(out), fromValue(m.value as ValueMsg));
  if (m.case === 'typedResult') {
    const tr = m.value as { result?: ValueMsg };
    return !tr.result || eq(fromLib(out), fromValue(tr.result));
  }
  return false;
}

const PROTO_SUITES = new Set(['proto2', 'proto3', 'proto2_ext', 'enums', 'wrappers', 'dynamic']);
const NOT_IN_KUBERNETES = new Set(['math_ext', 'block_ext', 'encoders_ext', 'bindings_ext']);
const usesMessages = (expr: string): boolean => /TestAllTypes|google\.protobuf\.|NestedTest|cel\.expr\./.test(expr);

/** The floor: the pass count measured when the CEL library was adopted (see docs/benchmarks.md). */
const FLOOR = 1110;

describe('cel-spec conformance', () => {
  it('passes the recorded share of the Kubernetes-relevant suites', async function () {
    this.timeout(120_000);
    const suites: Record<string, { pass: number; total: number }> = {};
    const walk = async (s: IncrementalTestSuite, top: string): Promise<void> => {
      for (const t of s.tests) {
        const c = t.original as unknown as Case;
        if (usesMessages(c.expr)) continue;
        const r = (suites[top] ??= { pass: 0, total: 0 });
        r.total++;
        if (await run(c)) r.pass++;
      }
      for (const sub of s.suites) await walk(sub, top);
    };
    for (const s of getConformanceSuite().suites) if (!PROTO_SUITES.has(s.name) && !NOT_IN_KUBERNETES.has(s.name)) await walk(s, s.name);
    const pass = Object.values(suites).reduce((a, r) => a + r.pass, 0);
    const total = Object.values(suites).reduce((a, r) => a + r.total, 0);
    console.log(`      cel-spec conformance (kubesim CEL, Kubernetes-relevant suites): ${pass}/${total} passed (${((100 * pass) / total).toFixed(1)}%); ${Object.entries(suites).map(([k, r]) => `${k} ${r.pass}/${r.total}`).join(', ')}`);
    assert.ok(pass >= FLOOR, `pass count ${pass} fell below the recorded floor ${FLOOR}`);
  });
});

