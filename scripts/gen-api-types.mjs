// Generates src/engine/api/generated/*.ts: one TypeScript declaration per Kubernetes API type of
// the group-versions kubesim serves, read off the vendored 1.35 OpenAPI v3 documents. Every
// consumer imports its Kubernetes types from there (narrowed with Pick<> where a view documents
// what it reads), so a type is declared once and says what the API server stores.
//
//   node scripts/gen-api-types.mjs           write the files (and remove stale ones)
//   node scripts/gen-api-types.mjs --check   regenerate in memory; exit 1 if a file differs
//
// One file per Go package (core-v1.ts for io.k8s.api.core.v1, meta-v1.ts for
// io.k8s.apimachinery.pkg.apis.meta.v1, ...), each declaration named as upstream names it.
// The types are JSON-shaped, as the API server stores the objects:
// - a field is optional unless the OpenAPI document lists it as required; a kind's apiVersion,
//   kind and metadata are always there once stored, so they are required;
// - a field is `| null` where Go's encoding/json writes null for it: a metav1.Time that is not a
//   pointer (zero Time is null) unless it is omitzero, and a pointer, slice or map without
//   omitempty (read from schemas/kubernetes/1.35/go-json.json.gz); and the few required slices
//   validation lets be empty, which Go writes as null when nil (REQUIRED_NIL);
// - int-or-string is `number | string`; a Quantity is its canonical string; Time and MicroTime
//   are RFC 3339 strings; RawExtension, FieldsV1 and other free-form objects are JsonObject,
//   apiextensions' JSON any JsonValue.
// Output is deterministic: definitions and fields in sorted order, descriptions as written.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare, GROUP_VERSIONS, readDocument, readSchemaFile, root } from './openapi.mjs';

const outDir = join(root, 'src', 'engine', 'api', 'generated');

/** Go package (OpenAPI name prefix) -> module file name. */
function moduleOf(pkg) {
  const known = {
    'io.k8s.apimachinery.pkg.apis.meta.v1': 'meta-v1',
    'io.k8s.apimachinery.pkg.api.resource': 'resource',
    'io.k8s.apimachinery.pkg.util.intstr': 'intstr',
    'io.k8s.apimachinery.pkg.runtime': 'runtime',
    'io.k8s.apimachinery.pkg.version': 'version',
    'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1': 'apiextensions-v1',
    'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1': 'apiregistration-v1',
  };
  if (known[pkg]) return known[pkg];
  const m = /^io\.k8s\.api\.([a-z0-9]+)\.(v[0-9a-z]+)$/.exec(pkg);
  if (!m) throw new Error(`no module for package ${pkg}`);
  return `${m[1]}-${m[2]}`;
}

/** Definitions whose OpenAPI schema says nothing a type can use (custom JSON marshalling). */
const SPECIAL = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'string',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'number | string',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': 'JsonValue',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': 'JSONSchemaProps | JSONSchemaProps[]',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': 'JSONSchemaProps | boolean',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': 'JSONSchemaProps | string[]',
};
const SPECIAL_REFS = {
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': ['JSONSchemaProps'],
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': ['JSONSchemaProps'],
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': ['JSONSchemaProps'],
};

/**
 * Required fields (no omitempty, so openapi-gen lists them as required) that validation still
 * lets be nil, which encoding/json writes as null: an EndpointSlice with no endpoints is stored
 * as `"endpoints": null` (the EndpointSlice controller writes it so).
 */
const REQUIRED_NIL = new Set(['io.k8s.api.discovery.v1.EndpointSlice.endpoints']);

const pkgOf = (name) => name.slice(0, name.lastIndexOf('.'));
const shortOf = (name) => name.slice(name.lastIndexOf('.') + 1);

/** { <module file>: <text> } for the whole generated folder. */
export function generate() {
  const definitions = new Map();
  for (const gv of GROUP_VERSIONS) {
    const doc = readDocument(gv);
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const seen = definitions.get(name);
      if (seen && JSON.stringify(seen) !== JSON.stringify(schema)) throw new Error(`${name} differs between documents`);
      definitions.set(name, schema);
    }
  }
  const goJson = readSchemaFile('go-json.json.gz');

  const byModule = new Map();
  for (const name of [...definitions.keys()].sort(compare)) {
    const mod = moduleOf(pkgOf(name));
    if (!byModule.has(mod)) byModule.set(mod, []);
    byModule.get(mod).push(name);
  }

  const files = {};
  for (const [mod, names] of [...byModule].sort(([a], [b]) => compare(a, b))) {
    const imports = new Map(); // module -> Set of names
    const use = (ref) => {
      const m = moduleOf(pkgOf(ref));
      if (m === mod) return shortOf(ref);
      if (!imports.has(m)) imports.set(m, new Set());
      imports.get(m).add(shortOf(ref));
      return shortOf(ref);
    };
    const json = new Set();
    const body = [];
    for (const name of names) {
      const schema = definitions.get(name);
      body.push(...docComment(schema.description, ''));
      const short = shortOf(name);
      if (SPECIAL[name]) {
        for (const r of SPECIAL_REFS[name] ?? []) use(`${pkgOf(name)}.${r}`);
        if (SPECIAL[name].includes('Json')) json.add(SPECIAL[name]);
        body.push(`export type ${short} = ${SPECIAL[name]};`, '');
        continue;
      }
      body.push(`export type ${short} = ${declaration(name, schema, goJson.structs[name], use, json)};`, '');
    }
    const head = [
      `// Generated by scripts/gen-api-types.mjs from the Kubernetes 1.35 OpenAPI v3 documents vendored in`,
      `// schemas/kubernetes/1.35/openapi/v3 (release-1.35; see schemas/kubernetes/1.35/PROVENANCE.md) and`,
      `// the Go JSON field shapes in schemas/kubernetes/1.35/go-json.json.gz. Do not edit: run`,
      `// \`node scripts/gen-api-types.mjs\` (test/unit/api/generated-types.test.ts checks it is up to date).`,
      `//`,
      `// Go package ${[...new Set(names.map(pkgOf))].join(', ')}.`,
    ];
    const importLines = [];
    if (json.size > 0) importLines.push(`import type { ${[...json].sort(compare).join(', ')} } from '../types';`);
    for (const [m, set] of [...imports].sort(([a], [b]) => compare(a, b))) {
      importLines.push(`import type { ${[...set].sort(compare).join(', ')} } from './${m}';`);
    }
    files[`${mod}.ts`] = [...head, ...(importLines.length ? ['', ...importLines] : []), '', ...body].join('\n').replace(/\n+$/, '\n');
  }
  return files;
}

function declaration(name, schema, goFields, use, json) {
  if (schema.properties) {
    const required = new Set(schema.required ?? []);
    const isKind = (schema['x-kubernetes-group-version-kind'] ?? []).length > 0 && /\.(ObjectMeta|ListMeta)$/.test(refOf(schema.properties.metadata) ?? '');
    if (isKind) for (const f of ['apiVersion', 'kind', 'metadata']) if (schema.properties[f]) required.add(f);
    const go = new Map((goFields ?? []).map(([field, flags, code]) => [field, { flags, code }]));
    const lines = ['{'];
    for (const field of Object.keys(schema.properties).sort(compare)) {
      const prop = schema.properties[field];
      let type = typeOf(prop, use, json);
      if ((!required.has(field) && nullable(go.get(field))) || REQUIRED_NIL.has(`${name}.${field}`)) type = `${type} | null`;
      lines.push(...docComment(prop.description, '  '));
      lines.push(`  ${propertyName(field)}${required.has(field) ? '' : '?'}: ${type};`);
    }
    lines.push('}');
    return lines.join('\n');
  }
  return typeOf(schema, use, json);
}

/**
 * Where Go's encoding/json writes null for an optional field (go-json's flags: 1 omitempty,
 * 2 omitzero). A required field is never null once stored: validation refuses it missing.
 */
function nullable(go) {
  if (!go) return false;
  const { flags, code } = go;
  if (code === 't') return (flags & 2) === 0; // a zero metav1.Time marshals as null
  if (code.startsWith('*') || code.startsWith('[') || code.startsWith('{') || code === 'B') return (flags & 1) === 0 && (flags & 2) === 0;
  return false;
}

function refOf(schema) {
  if (!schema) return undefined;
  if (schema.$ref) return schema.$ref.replace('#/components/schemas/', '');
  if (schema.allOf?.length === 1) return refOf(schema.allOf[0]);
  return undefined;
}

function typeOf(schema, use, json) {
  const ref = refOf(schema);
  if (ref) {
    return use(ref);
  }
  if (schema.format === 'int-or-string' || schema['x-kubernetes-int-or-string']) return 'number | string';
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const item = typeOf(schema.items ?? {}, use, json);
      return /[ |&]/.test(item) ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return `Record<string, ${typeOf(schema.additionalProperties, use, json)}>`;
      }
      json.add('JsonObject');
      return 'JsonObject';
  }
  json.add('JsonValue');
  return 'JsonValue';
}

function propertyName(field) {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(field) ? field : JSON.stringify(field);
}

function docComment(text, indent) {
  if (!text) return [];
  const lines = text.replace(/\*\//g, '*\\/').replace(/\t/g, '    ').split('\n').map((l) => l.replace(/\s+$/, ''));
  return [`${indent}/**`, ...lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)), `${indent} */`];
}

function main() {
  const files = generate();
  const check = process.argv.includes('--check');
  const present = existsSync(outDir) ? readdirSync(outDir).filter((f) => f.endsWith('.ts')) : [];
  const stale = [];
  for (const [file, text] of Object.entries(files)) {
    const path = join(outDir, file);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (current === text) continue;
    stale.push(current === undefined ? `${file} (missing)` : file);
    if (!check) {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(path, text);
    }
  }
  for (const file of present.filter((f) => !Object.hasOwn(files, f))) {
    stale.push(`${file} (not generated)`);
    if (!check) rmSync(join(outDir, file));
  }
  if (check) {
    if (stale.length > 0) {
      console.error(`src/engine/api/generated is out of date (run node scripts/gen-api-types.mjs): ${stale.join(', ')}`);
      process.exit(1);
    }
    console.log(`src/engine/api/generated is up to date (${Object.keys(files).length} files)`);
    return;
  }
  console.log(`${Object.keys(files).length} files -> src/engine/api/generated (${stale.length} changed)`);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main();
