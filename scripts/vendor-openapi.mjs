// Vendors the Kubernetes 1.35 OpenAPI v3 documents into schemas/kubernetes/1.35/openapi/v3.
//
//   node scripts/vendor-openapi.mjs [path/to/openapi-v3-1.35.tgz]
//
// Keeps the group-versions a default kube-apiserver 1.35 serves (GA ones; alpha and beta APIs are
// off by default), each byte for byte, gzipped. index.json lists them with the SHA-512 that
// kube-apiserver's /openapi/v3 index puts in serverRelativeURL (?hash=...), so serving the index
// does not need to unpack every document. kinds.json maps each group/version/kind to the
// definition that describes it and the document holding it: subresource kinds such as
// autoscaling/v1 Scale live in the documents of the resources that serve them (apps/v1), not in
// their own group-version's.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const source = process.argv[2] ?? '/work/shared/kubernetes-openapi/openapi-v3-1.35.tgz';
const out = join(import.meta.dirname, '..', 'schemas', 'kubernetes', '1.35', 'openapi', 'v3');

const tmp = mkdtempSync(join(tmpdir(), 'openapi-'));
try {
  execFileSync('tar', ['-xzf', source, '-C', tmp]);
  const files = walk(tmp).filter((f) => f.endsWith('.json'));
  rmSync(out, { recursive: true, force: true });
  const index = {};
  const kinds = {};
  for (const file of files.sort()) {
    const path = relative(tmp, file).replace(/\\/g, '/').replace(/\.json$/, '');
    const version = path.slice(path.lastIndexOf('/') + 1);
    if (!/^v\d+$/.test(version)) continue;
    const bytes = readFileSync(file);
    const doc = JSON.parse(bytes.toString('utf8'));
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      for (const { group, version, kind } of schema['x-kubernetes-group-version-kind'] ?? []) {
        const key = `${group}/${version}/${kind}`;
        const own = path === (group === '' ? `api/${version}` : `apis/${group}/${version}`);
        if (!kinds[key] || (own && kinds[key].path !== path)) kinds[key] = { definition: name, path };
      }
    }
    const target = join(out, `${path}.json.gz`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, gzipSync(bytes, { level: 9 }));
    index[path] = { sha512: createHash('sha512').update(bytes).digest('hex').toUpperCase(), bytes: bytes.length };
  }
  writeFileSync(join(out, 'index.json'), JSON.stringify(index, null, 1) + '\n');
  const sortedKinds = Object.fromEntries(Object.entries(kinds).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(join(out, 'kinds.json'), JSON.stringify(sortedKinds, null, 1) + '\n');
  console.log(`vendored ${Object.keys(index).length} documents into ${relative(process.cwd(), out)}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
