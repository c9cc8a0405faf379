/**
 * Where the vendored Kubernetes data (schemas/kubernetes/1.35) is on disk. The engine runs from
 * src/ under tests and from dist/ in the bundles and the .vsix, so the directory is found by
 * walking up from this module rather than by a fixed relative path.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const RELATIVE = join('schemas', 'kubernetes', '1.35');

let found: string | undefined;

export function kubernetesDataDir(): string {
  if (found !== undefined) return found;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, RELATIVE);
    if (existsSync(join(candidate, 'openapi', 'v3', 'index.json'))) return (found = candidate);
    if (dirname(dir) === dir) throw new Error(`kubesim: ${RELATIVE} not found above ${__dirname}`);
  }
}
