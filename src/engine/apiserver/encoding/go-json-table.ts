/**
 * How encoding/json writes the built-in types, from schemas/kubernetes/1.35/go-json.json.gz
 * (scripts/gen-go-types.mjs): for each served kind its struct, and for each struct its JSON
 * fields in Go's order with their omitempty/omitzero options and a type code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { kubernetesDataDir } from '../../api/openapi/data-dir';
import { own } from '../../api/own';

/** [json name, flags (1 omitempty, 2 omitzero), type code]; the codes are listed in the generator. */
export type GoJsonField = readonly [string, number, string];

interface GoJsonFile {
  /** "<group>/<version>/<Kind>" -> struct definition. */
  kinds: Record<string, string>;
  structs: Record<string, GoJsonField[]>;
}

export const OMITEMPTY = 1;
export const OMITZERO = 2;

let data: GoJsonFile | undefined;

function load(): GoJsonFile {
  if (!data) data = JSON.parse(gunzipSync(readFileSync(join(kubernetesDataDir(), 'go-json.json.gz'))).toString('utf8')) as GoJsonFile;
  return data;
}

/** The struct definition a kind's objects are, or undefined for kinds without a Go type (custom resources). */
export function kindDefinition(group: string, version: string, kind: string): string | undefined {
  return own(load().kinds, `${group}/${version}/${kind}`);
}

export function structFields(definition: string): readonly GoJsonField[] {
  const fields = own(load().structs, definition);
  if (!fields) throw new Error(`go-json: no struct ${definition}`);
  return fields;
}
