/**
 * Scalars as kubectl and kube-apiserver read YAML: go-yaml v2 resolves plain scalars with
 * YAML 1.1 rules ("yes", "on", "y" are true; "0777" is octal; "1e3" stays a string because its
 * exponent has no sign), and sigs.k8s.io/yaml then renders them as JSON. Resolving these here
 * rather than with a YAML 1.2 schema is what makes `value: yes` fail the way it does in a
 * cluster ("cannot unmarshal bool into Go struct field EnvVar... of type string").
 */
import { table } from '../../api/own';
import type { SourceNode, SourceSpan } from './source';
import { fail, ok, type Result } from '../../api/result';

export type Resolved =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'number'; value: number; text: string; int: boolean }
  | { kind: 'float-special'; text: '+Inf' | '-Inf' | 'NaN' }
  | { kind: 'string'; value: string };

/**
 * A resolved scalar as a source node. A float JSON cannot hold (.inf, .nan) is not one: `special`
 * says what becomes of it (the fast path gives up, the general path fails with encoding/json's error).
 */
export function resolvedNode(r: Resolved, span: SourceSpan, special: (text: '+Inf' | '-Inf' | 'NaN') => never): SourceNode {
  switch (r.kind) {
    case 'null':
      return { kind: 'null', ...span };
    case 'bool':
      return { kind: 'bool', value: r.value, ...span };
    case 'number':
      return { kind: 'number', value: r.value, text: r.text, ...span };
    case 'string':
      return { kind: 'string', value: r.value, ...span };
    case 'float-special':
      return special(r.text);
  }
}

const TRUE: ReadonlySet<string> = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const FALSE: ReadonlySet<string> = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
const NULL: ReadonlySet<string> = new Set(['', '~', 'null', 'Null', 'NULL']);
const SPECIAL = table<'+Inf' | '-Inf' | 'NaN'>({
  '.nan': 'NaN', '.NaN': 'NaN', '.NAN': 'NaN',
  '.inf': '+Inf', '.Inf': '+Inf', '.INF': '+Inf',
  '+.inf': '+Inf', '+.Inf': '+Inf', '+.INF': '+Inf',
  '-.inf': '-Inf', '-.Inf': '-Inf', '-.INF': '-Inf',
});
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;
const YAML_STYLE_FLOAT = /^[-+]?[0-9]*\.?[0-9]+([eE][-+][0-9]+)?$/;

/** An untagged plain scalar. */
export function resolvePlain(s: string): Resolved {
  if (TRUE.has(s)) return { kind: 'bool', value: true };
  if (FALSE.has(s)) return { kind: 'bool', value: false };
  if (NULL.has(s)) return { kind: 'null' };
  const special = SPECIAL[s];
  if (special) return { kind: 'float-special', text: special };
  const c = s[0] ?? '';
  if (c === '.') {
    if (/^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s)) return float(Number(s), s);
    return { kind: 'string', value: s };
  }
  if (c === '+' || c === '-' || (c >= '0' && c <= '9')) {
    const plain = s.replace(/_/g, '');
    const int = parseGoInt(plain);
    if (int !== undefined && int >= INT64_MIN && int <= UINT64_MAX) return { kind: 'number', value: Number(int), text: int.toString(), int: true };
    if (YAML_STYLE_FLOAT.test(plain)) return float(Number(plain), s);
  }
  return { kind: 'string', value: s };
}

/** A scalar with an explicit standard tag (!!int, !!bool, ...); undefined if the tag is not one of them. */
export function resolveTagged(tag: string, s: string): Result<Resolved> | undefined {
  const short = tag.replace('tag:yaml.org,2002:', '!!');
  switch (short) {
    case '!!str':
    case '!!timestamp':
      return ok({ kind: 'string', value: s });
    case '!!binary': {
      const clean = s.replace(/\s/g, '');
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) return fail('yaml: !!binary value contains invalid base64 data');
      return ok({ kind: 'string', value: Buffer.from(clean, 'base64').toString('latin1') });
    }
    case '!!int':
    case '!!float':
    case '!!bool':
    case '!!null': {
      const r = resolvePlain(s);
      const resolvedTag = r.kind === 'number' ? (r.int ? '!!int' : '!!float') : r.kind === 'float-special' ? '!!float' : r.kind === 'string' ? '!!str' : `!!${r.kind}`;
      if (resolvedTag === short) return ok(r);
      if (short === '!!float' && r.kind === 'number') return ok({ ...r, int: false });
      return fail(`yaml: cannot decode ${resolvedTag} \`${s}\` as a ${short}`);
    }
    default:
      return undefined;
  }
}

function float(value: number, source: string): Resolved {
  if (!Number.isFinite(value)) return { kind: 'string', value: source };
  return { kind: 'number', value, text: goJsonFloat(value), int: false };
}

/** encoding/json's rendering of a float64 (JavaScript's shortest form, Go's "-0"). */
export function goJsonFloat(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

/** strconv.ParseInt(s, 0, 64) and ParseUint's syntax: sign, 0x/0o/0b/0 prefixes; undefined if invalid. */
function parseGoInt(s: string): bigint | undefined {
  let sign = 1n;
  let body = s;
  if (body[0] === '+' || body[0] === '-') {
    if (body[0] === '-') sign = -1n;
    body = body.slice(1);
  }
  let digits: RegExp;
  let prefix = '';
  if (/^0[xX]/.test(body)) [digits, prefix, body] = [/^[0-9a-fA-F]+$/, '0x', body.slice(2)];
  else if (/^0[bB]/.test(body)) [digits, prefix, body] = [/^[01]+$/, '0b', body.slice(2)];
  else if (/^0[oO]/.test(body)) [digits, prefix, body] = [/^[0-7]+$/, '0o', body.slice(2)];
  else if (/^0[0-9]/.test(body)) [digits, prefix, body] = [/^[0-7]+$/, '0o', body.slice(1)];
  else digits = /^[0-9]+$/;
  if (!digits.test(body)) return undefined;
  return sign * BigInt(prefix + body);
}

/** sigs.k8s.io/yaml's JSON key for a YAML key (strconv.FormatFloat(k, 'g', -1, 32) for floats). */
export function jsonKey(r: Resolved): string | undefined {
  switch (r.kind) {
    case 'string':
      return r.value;
    case 'bool':
      return r.value ? 'true' : 'false';
    case 'float-special':
      return r.text === '+Inf' ? '.inf' : r.text === '-Inf' ? '-.inf' : '.nan';
    case 'number':
      return r.int ? r.text : formatFloat32(r.value);
    case 'null':
      return undefined;
  }
}

function formatFloat32(v: number): string {
  const f = Math.fround(v);
  let digits = '';
  for (let p = 1; p <= 9; p++) {
    digits = f.toPrecision(p);
    if (Math.fround(Number(digits)) === f) break;
  }
  const [mantissa, exp] = Number(digits).toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(Number(digits));
}
