/**
 * The Go types kube-apiserver decodes built-in kinds into, as reflect prints them ("int32",
 * "[]v1.Container", "v1.ResourceList"), from schemas/kubernetes/1.35/go-types.json.gz
 * (scripts/gen-go-types.mjs). Decode errors name these types and the structs holding the fields.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { kubernetesDataDir } from '../../api/openapi/data-dir';
import { dictOf, own, type Dict } from '../../api/own';

export interface GoStruct {
  /** The struct's name without its package, as errors print it: "DeploymentSpec". */
  name: string;
  /** JSON field name -> Go type, inline embedded structs flattened. */
  fields: Readonly<Dict<string>>;
}

interface GoTypesFile {
  structs: Record<string, [string, Record<string, string>]>;
  named: Record<string, string>;
}

let data: GoTypesFile | undefined;
const structCache = new Map<string, GoStruct | undefined>();

function load(): GoTypesFile {
  if (!data) data = JSON.parse(gunzipSync(readFileSync(join(kubernetesDataDir(), 'go-types.json.gz'))).toString('utf8')) as GoTypesFile;
  return data;
}

/** The Go struct behind an OpenAPI definition, e.g. io.k8s.api.apps.v1.DeploymentSpec. */
export function goStruct(definition: string): GoStruct | undefined {
  if (structCache.has(definition)) return structCache.get(definition);
  const entry = own(load().structs, definition);
  const s = entry ? { name: entry[0], fields: dictOf(entry[1]) } : undefined;
  structCache.set(definition, s);
  return s;
}

/** The underlying type of a named type ("v1.ResourceList" -> "map[v1.ResourceName]resource.Quantity"). */
export function underlyingType(type: string): string {
  let t = type;
  for (let i = 0; i < 8; i++) {
    const next = own(load().named, t);
    if (next === undefined) return t;
    t = next;
  }
  return t;
}

/** The element type of a slice or map type, or undefined. */
export function elementType(type: string): string | undefined {
  const u = underlyingType(type);
  if (u.startsWith('[]')) return u.slice(2);
  if (!u.startsWith('map[')) return undefined;
  let depth = 0;
  for (let i = 3; i < u.length; i++) {
    if (u[i] === '[') depth++;
    else if (u[i] === ']' && --depth === 0) return u.slice(i + 1);
  }
  return undefined;
}
