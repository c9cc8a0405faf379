// Generates schemas/kubernetes/1.35/go-types.json.gz: the Go type of every JSON field of the
// served kinds, as Go's reflect package prints it. kube-apiserver decodes built-in kinds into
// these structs, and its decode errors name them:
//   json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32
//
//   node scripts/gen-go-types.mjs [mirror-root]
//
// Reads the release-1.35 Go sources of k8s.io/api, k8s.io/apimachinery and
// k8s.io/apiextensions-apiserver from local git mirrors (default /work/.mirror).
// Output: { structs: { <OpenAPI definition>: [<Go struct name>, { <json field>: <Go type> }] },
//           named: { <Go type>: <underlying Go type> } } for named non-struct types.
//
// It also writes schemas/kubernetes/1.35/go-json.json.gz: how encoding/json writes each struct
// reachable from a served kind, for the API server's Go-shaped storage encoding.
// Output: { kinds: { "<group>/<version>/<Kind>": <definition> },
//           structs: { <definition>: [[<json field>, <flags>, <type code>], ...] } }
// with fields in Go's order (inline embedded structs in place), flags 1 = omitempty and
// 2 = omitzero, and type codes: s string, n number, b bool, B []byte, t Time or MicroTime
// (zero is null), q Quantity (zero "0"), i IntOrString (zero 0), d Duration (zero "0s"),
// r raw JSON kept as it is (zero null), *X pointer, [X slice, {X map with values X,
// @<definition> struct.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

const mirrors = process.argv[2] ?? '/work/.mirror';
const root = join(import.meta.dirname, '..');
const REF = 'release-1.35';

const API_GROUPS = [
  'core/v1', 'apps/v1', 'batch/v1', 'autoscaling/v1', 'autoscaling/v2', 'policy/v1', 'discovery/v1',
  'networking/v1', 'rbac/v1', 'coordination/v1', 'events/v1', 'scheduling/v1', 'storage/v1',
  'admissionregistration/v1', 'authentication/v1', 'authorization/v1',
];
const SOURCES = [
  ...API_GROUPS.map((g) => ({ repo: 'kubernetes+api', file: `${g}/types.go`, importPath: `k8s.io/api/${g}` })),
  ...['types.go', 'time.go', 'micro_time.go', 'duration.go'].map((f) => ({
    repo: 'kubernetes+apimachinery',
    file: `pkg/apis/meta/v1/${f}`,
    importPath: 'k8s.io/apimachinery/pkg/apis/meta/v1',
  })),
  ...['types.go', 'types_jsonschema.go'].map((f) => ({
    repo: 'kubernetes+apiextensions-apiserver',
    file: `pkg/apis/apiextensions/v1/${f}`,
    importPath: 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1',
  })),
];

/** Named types of packages not read here, by their printed name. */
const FOREIGN_NAMED = {
  'types.UID': 'string',
  'time.Duration': 'int64',
};

/** Structs with their own UnmarshalJSON: the decoder treats them by name, not by their fields. */
const CUSTOM_UNMARSHAL = new Set([
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Duration',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
]);

const BUILTINS = new Set(['string', 'bool', 'byte', 'int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64']);

/** Go type expression -> reflect's String(), given the file's package name and imports. */
function printType(expr, pkg, imports) {
  if (expr.startsWith('*')) return '*' + printType(expr.slice(1), pkg, imports);
  if (expr.startsWith('[]')) return '[]' + printType(expr.slice(2), pkg, imports);
  if (expr.startsWith('map[')) {
    let depth = 0;
    let i = 3;
    for (; i < expr.length; i++) {
      if (expr[i] === '[') depth++;
      else if (expr[i] === ']' && --depth === 0) break;
    }
    return `map[${printType(expr.slice(4, i), pkg, imports)}]${printType(expr.slice(i + 1), pkg, imports)}`;
  }
  if (expr === 'byte') return 'uint8';
  if (expr === 'interface{}') return 'interface {}';
  if (BUILTINS.has(expr)) return expr;
  const dot = expr.indexOf('.');
  if (dot < 0) return `${pkg}.${expr}`;
  const alias = expr.slice(0, dot);
  const path = imports.get(alias);
  if (!path) throw new Error(`unknown import ${alias} in ${expr}`);
  return `${path.slice(path.lastIndexOf('/') + 1)}.${expr.slice(dot + 1)}`;
}

/** Go type expression -> the same with every named type qualified by its import path. */
function qualifyType(expr, importPath, imports) {
  if (expr.startsWith('*')) return '*' + qualifyType(expr.slice(1), importPath, imports);
  if (expr.startsWith('[]')) return '[]' + qualifyType(expr.slice(2), importPath, imports);
  if (expr.startsWith('map[')) {
    let depth = 0;
    let i = 3;
    for (; i < expr.length; i++) {
      if (expr[i] === '[') depth++;
      else if (expr[i] === ']' && --depth === 0) break;
    }
    return `map[${qualifyType(expr.slice(4, i), importPath, imports)}]${qualifyType(expr.slice(i + 1), importPath, imports)}`;
  }
  if (expr === 'interface{}' || BUILTINS.has(expr)) return expr;
  const dot = expr.indexOf('.');
  if (dot < 0) return `${importPath}.${expr}`;
  const path = imports.get(expr.slice(0, dot));
  if (!path) throw new Error(`unknown import in ${expr}`);
  return `${path}.${expr.slice(dot + 1)}`;
}

function parse(source) {
  const text = execFileSync('git', ['-C', join(mirrors, source.repo, 'repo'), 'show', `${REF}:${source.file}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const pkg = /^package (\w+)/m.exec(text)[1];
  const imports = new Map();
  const block = /^import \(([\s\S]*?)^\)/m.exec(text)?.[1] ?? '';
  for (const line of [...block.split('\n'), ...[...text.matchAll(/^import (.*)$/gm)].map((m) => m[1])]) {
    const m = /^\s*(?:(\w+)\s+)?"([^"]+)"/.exec(line);
    if (m) imports.set(m[1] ?? m[2].slice(m[2].lastIndexOf('/') + 1), m[2]);
  }
  const structs = [];
  const named = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = /^type (\w+) struct \{$/.exec(lines[i]);
    if (start) {
      const fields = [];
      let inComment = false;
      for (i++; lines[i] !== '}'; i++) {
        let line = lines[i];
        if (inComment || line.trim().startsWith('/*')) {
          inComment = !line.includes('*/');
          continue;
        }
        line = line.replace(/\/\/.*$/, '').trim();
        if (!line) continue;
        const m = /^(?:(\w+)\s+)?([^\s`]+)\s*(?:`([^`]*)`)?$/.exec(line);
        if (!m) throw new Error(`${source.file}:${i + 1}: cannot read field: ${line}`);
        const [, name, type, tags] = m;
        const json = /json:"([^"]*)"/.exec(tags ?? '')?.[1];
        const [jsonName, ...opts] = json?.split(',') ?? [];
        if (jsonName === '-' || (name && /^[a-z]/.test(name))) continue;
        const printed = printType(type, pkg, imports);
        const qualified = qualifyType(type, source.importPath, imports);
        if (!name && !jsonName) fields.push({ inline: printed.replace(/^\*/, ''), qualifiedInline: qualified.replace(/^\*/, '') });
        else fields.push({ json: jsonName || name || printed.slice(printed.lastIndexOf('.') + 1), type: printed, qualified, opts });
      }
      structs.push({ printed: `${pkg}.${start[1]}`, name: start[1], importPath: source.importPath, fields });
      continue;
    }
    const empty = /^type (\w+) struct\{\}$/.exec(lines[i]);
    if (empty) {
      structs.push({ printed: `${pkg}.${empty[1]}`, name: empty[1], importPath: source.importPath, fields: [], empty: true });
      continue;
    }
    const alias = /^type (\w+) (=\s*)?([^\s{]+)$/.exec(lines[i]);
    if (alias) {
      named.push({
        printed: `${pkg}.${alias[1]}`,
        isAlias: !!alias[2],
        underlying: printType(alias[3].trim(), pkg, imports),
        qualified: `${source.importPath}.${alias[1]}`,
        qualifiedUnderlying: qualifyType(alias[3].trim(), source.importPath, imports),
      });
    }
  }
  return { structs, named };
}

const structsByPrinted = new Map();
const named = { ...FOREIGN_NAMED };
const aliases = new Map();
for (const source of SOURCES) {
  const parsed = parse(source);
  // Empty structs (struct{}) only matter to the encoding table below.
  for (const s of parsed.structs.filter((x) => !x.empty)) {
    const key = `${s.importPath}.${s.name}`;
    structsByPrinted.set(key, s);
  }
  for (const n of parsed.named) {
    if (n.isAlias) aliases.set(n.printed, n.underlying);
    else if (named[n.printed] !== undefined && named[n.printed] !== n.underlying) throw new Error(`conflicting ${n.printed}`);
    else named[n.printed] = n.underlying;
  }
}

const resolveAlias = (t) => t.replace(/[\w]+\.[\w]+/g, (m) => aliases.get(m) ?? m);

/** A struct's fields with inline embedded structs flattened (Go's promotion of their fields). */
function flatten(s, importPathOf) {
  const out = {};
  for (const f of s.fields) {
    if (f.inline) {
      const embedded = findStruct(f.inline, s.importPath);
      if (!embedded) throw new Error(`${s.name}: embedded ${f.inline} not found`);
      for (const [k, v] of Object.entries(flatten(embedded, importPathOf))) if (!(k in out)) out[k] = v;
    } else {
      out[f.json] = resolveAlias(f.type);
    }
  }
  return out;
}

function findStruct(printed, fromImportPath) {
  const [pkg, name] = printed.split('.');
  const candidates = [...structsByPrinted.values()].filter((s) => s.name === name && s.importPath.endsWith(`/${pkg}`));
  return candidates.find((s) => s.importPath === fromImportPath) ?? candidates.find((s) => s.importPath.includes('apimachinery')) ?? candidates[0];
}

function definitionName(importPath, name) {
  const [domain, ...rest] = importPath.split('/');
  return [...domain.split('.').reverse(), ...rest].join('.') + '.' + name;
}

const docsDir = join(root, 'schemas', 'kubernetes', '1.35', 'openapi', 'v3');
const definitions = new Set();
for (const file of walk(docsDir).filter((f) => f.endsWith('.json.gz'))) {
  const doc = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
  for (const name of Object.keys(doc.components.schemas)) definitions.add(name);
}

const structs = {};
for (const s of structsByPrinted.values()) {
  const def = definitionName(s.importPath, s.name);
  if (!definitions.has(def) || CUSTOM_UNMARSHAL.has(def)) continue;
  structs[def] = [s.name, flatten(s)];
}
const sortedStructs = Object.fromEntries(Object.entries(structs).sort(([a], [b]) => (a < b ? -1 : 1)));
// Named struct types (type List metav1.List) decode as structs; only the others need a table.
const usedNamed = Object.fromEntries(
  Object.entries(named)
    .map(([k, v]) => [k, resolveAlias(v)])
    .filter(([k, v]) => v !== k && (!/^\w+\.\w+$/.test(v) || v in named))
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
const out = JSON.stringify({ structs: sortedStructs, named: usedNamed });
writeFileSync(join(root, 'schemas', 'kubernetes', '1.35', 'go-types.json.gz'), gzipSync(Buffer.from(out), { level: 9 }));
console.log(`${Object.keys(sortedStructs).length} structs, ${Object.keys(usedNamed).length} named types, ${out.length} bytes`);

// ---- go-json.json.gz: what encoding/json writes for each struct ----

const META = 'k8s.io/apimachinery/pkg/apis/meta/v1';
const APIEXT = 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1';
/** Types with their own MarshalJSON (or from packages not read here), by what their value is. */
const SPECIAL_CODES = {
  [`${META}.Time`]: 't',
  [`${META}.MicroTime`]: 't',
  [`${META}.Duration`]: 'd',
  [`${META}.FieldsV1`]: 'r',
  'k8s.io/apimachinery/pkg/api/resource.Quantity': 'q',
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString': 'i',
  'k8s.io/apimachinery/pkg/runtime.RawExtension': 'r',
  'k8s.io/apimachinery/pkg/types.UID': 's',
  'time.Duration': 'n',
  'interface{}': 'r',
  [`${APIEXT}.JSON`]: 'r',
  [`${APIEXT}.JSONSchemaPropsOrArray`]: 'r',
  [`${APIEXT}.JSONSchemaPropsOrBool`]: 'r',
  [`${APIEXT}.JSONSchemaPropsOrStringArray`]: 'r',
};
const NUMBERS = new Set(['int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64', 'byte']);

const qualifiedStructs = new Map();
const qualifiedNamed = new Map();
for (const source of SOURCES) {
  const parsed = parse(source);
  for (const st of parsed.structs) qualifiedStructs.set(`${st.importPath}.${st.name}`, st);
  for (const n of parsed.named) qualifiedNamed.set(n.qualified, n.qualifiedUnderlying);
}

const jsonStructs = {};
const pending = [];

function structDefinition(qualified) {
  const dot = qualified.lastIndexOf('.');
  return definitionName(qualified.slice(0, dot), qualified.slice(dot + 1));
}

function typeCode(t) {
  if (SPECIAL_CODES[t]) return SPECIAL_CODES[t];
  if (t.startsWith('*')) return '*' + typeCode(t.slice(1));
  if (t === '[]byte' || t === '[]uint8') return 'B';
  if (t.startsWith('[]')) return '[' + typeCode(t.slice(2));
  if (t.startsWith('map[')) {
    let depth = 0;
    let i = 3;
    for (; i < t.length; i++) {
      if (t[i] === '[') depth++;
      else if (t[i] === ']' && --depth === 0) break;
    }
    return '{' + typeCode(t.slice(i + 1));
  }
  if (t === 'string') return 's';
  if (t === 'bool') return 'b';
  if (NUMBERS.has(t)) return 'n';
  if (qualifiedNamed.has(t)) return typeCode(qualifiedNamed.get(t));
  if (qualifiedStructs.has(t)) {
    const def = structDefinition(t);
    if (!(def in jsonStructs)) {
      jsonStructs[def] = null;
      pending.push(t);
    }
    return '@' + def;
  }
  throw new Error(`go-json: no encoding known for ${t}`);
}

/** The struct's JSON fields in Go's order, embedded inline structs in place; outer names win. */
function jsonFields(qualified) {
  const st = qualifiedStructs.get(qualified);
  if (!st) throw new Error(`go-json: struct ${qualified} not found`);
  const own = new Set(st.fields.filter((f) => !f.qualifiedInline).map((f) => f.json));
  const out = [];
  for (const f of st.fields) {
    if (f.qualifiedInline) {
      for (const e of jsonFields(f.qualifiedInline)) if (!own.has(e[0]) && !out.some((o) => o[0] === e[0])) out.push(e);
      continue;
    }
    const flags = (f.opts.includes('omitempty') ? 1 : 0) | (f.opts.includes('omitzero') ? 2 : 0);
    out.push([f.json, flags, typeCode(f.qualified)]);
  }
  return out;
}

const kindsFile = JSON.parse(readFileSync(join(docsDir, 'kinds.json'), 'utf8'));
const jsonKinds = {};
const byDefinition = new Map([...qualifiedStructs.keys()].map((q) => [structDefinition(q), q]));
for (const [gvk, entry] of Object.entries(kindsFile).sort(([a], [b]) => (a < b ? -1 : 1))) {
  const qualified = byDefinition.get(entry.definition);
  if (!qualified || gvk.endsWith('List') || SPECIAL_CODES[qualified]) continue;
  jsonKinds[gvk] = entry.definition;
  typeCode(qualified);
}
while (pending.length > 0) {
  const q = pending.pop();
  jsonStructs[structDefinition(q)] = jsonFields(q);
}
const goJson = JSON.stringify({
  kinds: jsonKinds,
  structs: Object.fromEntries(Object.entries(jsonStructs).sort(([a], [b]) => (a < b ? -1 : 1))),
});
writeFileSync(join(root, 'schemas', 'kubernetes', '1.35', 'go-json.json.gz'), gzipSync(Buffer.from(goJson), { level: 9 }));
console.log(`go-json: ${Object.keys(jsonKinds).length} kinds, ${Object.keys(jsonStructs).length} structs, ${goJson.length} bytes`);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}
