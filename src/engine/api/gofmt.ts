/**
 * Go's formatting of values as the apiserver's messages print them. Kubernetes texts are built
 * with fmt verbs (%q, %v, %#v) and encoding/json; reproducing them exactly is what makes an
 * error from kubesim read the same as one from kube-apiserver.
 */

/** Printable ASCII other than '"' and '\\': quoted as it is (names, paths, most messages). */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** strconv.Quote: a double-quoted Go string literal with Go's escapes. */
export function goQuote(s: string): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd';
    else if (!isGoPrintable(cp)) out += cp > 0xffff ? '\\U' + cp.toString(16).padStart(8, '0') : '\\u' + cp.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

function isGoPrintable(cp: number): boolean {
  if (cp >= 0x80 && cp < 0xa0) return false;
  if (cp === 0xad) return false;
  return !/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(String.fromCodePoint(cp)) || cp === 0x20;
}

/**
 * fmt's %v for a float64: strconv.FormatFloat(f, 'g', -1, 64) -- the shortest representation,
 * switching to exponent form for exponents < -4 or >= 21, with Go's "e+06" exponent style.
 */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return String(f);
  const exp = f === 0 ? 0 : Math.floor(Math.log10(Math.abs(f)));
  if (exp < -4 || exp >= 21) {
    const [mant, e] = f.toExponential().split('e') as [string, string];
    const sign = e.startsWith('-') ? '-' : '+';
    const digits = e.replace(/^[+-]/, '').padStart(2, '0');
    return `${mant}e${sign}${digits}`;
  }
  return String(f);
}

/**
 * encoding/json.Marshal: object keys sorted (Go maps), HTML-sensitive characters escaped,
 * floats in Go's style. Structs are not distinguishable from maps here, so callers that
 * reproduce a struct's field order pass a Map, whose insertion order is kept.
 */
export function goJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return jsonString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? jsonNumber(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return '[' + value.map(goJson).join(',') + ']';
  if (value instanceof Map) {
    return '{' + [...value.entries()].map(([k, v]) => jsonString(String(k)) + ':' + goJson(v)).join(',') + '}';
  }
  if (typeof value === 'object') {
    const keys = Object.keys(value as object).sort();
    return '{' + keys.map((k) => jsonString(k) + ':' + goJson((value as Record<string, unknown>)[k])).join(',') + '}';
  }
  return 'null';
}

function jsonNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const abs = Math.abs(n);
  if (abs < 1e-6 || abs >= 1e21) {
    // encoding/json writes 'e' format and then trims the exponent's padding: "1e-7", "1e+21".
    const [mant, e] = n.toExponential().split('e') as [string, string];
    const sign = e.startsWith('-') ? '-' : '+';
    return `${mant}e${sign}${e.replace(/^[+-]/, '')}`;
  }
  return String(n);
}

/** The characters jsonString escapes. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029]/;

function jsonString(s: string): string {
  // Most strings (names, keys, images) need no escape: one concatenation, not one per character.
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else out += ch;
  }
  return out + '"';
}
