/**
 * The fuzz's seeds: the project's examples, the kubectl suite's manifests, and the objects of the
 * conformance cases (as YAML, some as JSON), in a fixed order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface Seed {
  file: string;
  text: string;
}

const ROOT = join(__dirname, '..', '..');

function sanitized(o: Record<string, unknown>): Record<string, unknown> {
  const meta = typeof o.metadata === 'object' && o.metadata !== null ? { ...(o.metadata as Record<string, unknown>) } : undefined;
  if (!meta) return o;
  for (const k of ['namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'generation']) delete meta[k];
  return { ...o, metadata: meta };
}

export function loadSeeds(): Seed[] {
  const seeds: Seed[] = [];
  for (const dir of ['examples', 'test/kubectl/manifests']) {
    for (const f of readdirSync(join(ROOT, dir)).sort()) {
      if (/\.(ya?ml|json)$/.test(f)) seeds.push({ file: `${dir}/${f}`, text: readFileSync(join(ROOT, dir, f), 'utf8') });
    }
  }
  const casesDir = join(ROOT, 'test/conformance/cases');
  for (const f of readdirSync(casesDir).sort()) {
    if (!f.endsWith('.json')) continue;
    const cases = JSON.parse(readFileSync(join(casesDir, f), 'utf8')) as Array<{ name: string; object?: unknown; expect?: unknown[] }>;
    cases.forEach((c, i) => {
      if (typeof c.object !== 'object' || c.object === null) return;
      // The valid objects, so that mutants reach controllers and kubelets too, and a third of the
      // invalid ones; in the default namespace, without the fields a server sets.
      const valid = Array.isArray(c.expect) && c.expect.length === 0;
      if (!valid && i % 3 !== 0) return;
      const object = sanitized(c.object as Record<string, unknown>);
      const json = i % 5 === 4;
      seeds.push({ file: `${f.replace(/\.json$/, '')}-${i}.${json ? 'json' : 'yaml'}`, text: json ? JSON.stringify(object, null, 2) + '\n' : stringify(object) });
    });
  }
  return seeds;
}
