/**
 * cel-go's ext.Strings at version 2, as Kubernetes 1.35 enables it, for the functions the CEL
 * library does not have itself (charAt, replace, format, strings.quote), and Kubernetes' regex
 * library (find, findAll).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celError, fromCel } from '../values';
import { compileRE2 } from './re2';

function charAt(s: string, i: bigint): string {
  const cps = Array.from(s);
  if (i < 0n || i > BigInt(cps.length)) throw celError(`index out of range: ${i}`);
  return cps[Number(i)] ?? '';
}

function replace(s: string, old: string, nu: string, n: bigint = -1n): string {
  if (n === 0n) return s;
  if (n < 0n) return old === '' ? Array.from(s).join(nu).replace(/^/, nu) + nu : s.split(old).join(nu);
  let out = '';
  let rest = s;
  let count = 0n;
  while (count < n) {
    const at = rest.indexOf(old);
    if (at < 0) break;
    out += rest.slice(0, at) + nu;
    rest = rest.slice(at + old.length);
    count++;
  }
  return out + rest;
}

function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\x07': out += '\\a'; break;
      case '\b': out += '\\b'; break;
      case '\f': out += '\\f'; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      case '\v': out += '\\v'; break;
      case '\\': out += '\\\\'; break;
      case '"': out += '\\"'; break;
      default: out += ch;
    }
  }
  return out + '"';
}

/** strings.format's verbs: %s, %d, %f (with precision), %e, %b, %o, %x, %X, %%. */
function format(fmt: string, args: readonly unknown[]): string {
  let i = 0;
  return fmt.replace(/%(\.\d+)?([sdfeboxX%])/g, (_m, prec: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) throw celError(`index ${i} out of range`);
    const a = args[i++];
    const p = prec ? Number(prec.slice(1)) : 6;
    switch (verb) {
      case 's': return stringOf(a);
      case 'd': return typeof a === 'bigint' ? a.toString() : Number.isInteger(a) ? String(a) : fail('decimal', a);
      case 'f': return Number(a).toFixed(p);
      case 'e': return Number(a).toExponential(p).replace(/e([+-])(\d)$/, 'e$10$2');
      case 'b': return typeof a === 'boolean' ? String(a) : BigInt(a as bigint).toString(2);
      case 'o': return BigInt(a as bigint).toString(8);
      case 'x': return typeof a === 'string' ? Buffer.from(a).toString('hex') : BigInt(a as bigint).toString(16);
      case 'X': return (typeof a === 'string' ? Buffer.from(a).toString('hex') : BigInt(a as bigint).toString(16)).toUpperCase();
    }
    return '';
  });
}

function fail(what: string, a: unknown): never {
  throw celError(`error during formatting: ${what} clause can only be used on integers, was given ${typeof a}`);
}

function stringOf(a: unknown): string {
  if (a === null) return 'null';
  if (typeof a === 'string') return a;
  if (Array.isArray(a)) return `[${a.map(stringOf).join(', ')}]`;
  if (typeof a === 'object') return JSON.stringify(fromCel(a));
  return String(a);
}

/** Kubernetes' regex library reports a bad pattern as "Illegal regex: ...". */
function regex(re: string, flags = ''): RegExp {
  try {
    return compileRE2(re, flags);
  } catch (err) {
    throw celError(`Illegal regex: ${(err as Error).message}`);
  }
}

function find(s: string, re: string): string {
  return regex(re).exec(s)?.[0] ?? '';
}

function findAll(s: string, re: string, n: bigint = -1n): string[] {
  if (n === 0n) return [];
  const rx = regex(re, 'g');
  const out: string[] = [];
  for (const m of s.matchAll(rx)) {
    out.push(m[0]);
    if (n > 0n && BigInt(out.length) >= n) break;
  }
  return out;
}

export function registerStrings(env: Environment): void {
  env
    .registerFunction('string.charAt(int): string', charAt)
    .registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => replace(s, a, b))
    .registerFunction('string.replace(string, string, int): string', replace)
    .registerFunction('string.format(list): string', format)
    .registerFunction('StringsNamespace.quote(string): string', (_ns: unknown, s: string) => quote(s))
    .registerFunction('string.find(string): string', find)
    .registerFunction('string.findAll(string): list<string>', (s: string, re: string) => findAll(s, re))
    .registerFunction('string.findAll(string, int): list<string>', findAll);
}
