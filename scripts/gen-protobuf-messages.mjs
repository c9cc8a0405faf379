// Extracts the protobuf message layouts kube-apiserver's request bodies use (field number, JSON
// name, type, repeated/map) from the generated.proto files of k8s.io/api and apimachinery on
// release-1.35, into src/http/protobuf/messages.json. kubectl's typed clients send protobuf.
// usage: node scripts/gen-protobuf-messages.mjs <mirror dir holding kubernetes+api and kubernetes+apimachinery>
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2] ?? '/work/.mirror';
const BRANCH = 'release-1.35';
const git = (repo, ...args) => execFileSync('git', ['-C', join(root, repo, 'repo'), ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

// The group-versions a default 1.35 kube-apiserver serves (GA), plus apimachinery's own.
const API = git('kubernetes+api', 'ls-tree', '-r', '--name-only', BRANCH)
  .split('\n')
  .filter((p) => /^[a-z]+\/v\d+\/generated\.proto$/.test(p));
const MACHINERY = ['pkg/apis/meta/v1', 'pkg/api/resource', 'pkg/util/intstr', 'pkg/runtime', 'pkg/runtime/schema'].map((p) => `${p}/generated.proto`);

const SCALARS = new Set(['string', 'bytes', 'bool', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'double', 'float', 'fixed32', 'fixed64']);
const messages = {};

function qualify(type, pkg) {
  if (SCALARS.has(type)) return type;
  return type.startsWith('.') ? type.slice(1) : `${pkg}.${type}`;
}

/**
 * Go struct fields whose protobuf name is not their JSON name (BoundObjectReference's uID is
 * "uid", IngressClassParametersReference's aPIGroup is "apiGroup"), by message: from the tags
 * of the Go types next to a generated.proto.
 */
function jsonRenames(goSources) {
  const renames = {};
  for (const text of goSources) {
    const re = /^type (\w+) struct \{([\s\S]*?)^\}/gm;
    let m;
    while ((m = re.exec(text))) {
      for (const tag of m[2].matchAll(/json:"([^",]*)[^"]*"[^`]*protobuf:"[^"]*\bname=(\w+)/g)) {
        if (tag[1] !== '' && tag[1] !== '-' && tag[1] !== tag[2]) (renames[m[1]] ??= {})[tag[2]] = tag[1];
      }
    }
  }
  return renames;
}

function parse(text, renames = {}) {
  const pkg = /^package ([\w.-]+);/m.exec(text)[1];
  const re = /^message (\w+) \{([\s\S]*?)^\}/gm;
  let m;
  while ((m = re.exec(text))) {
    const fields = [];
    for (const line of m[2].split('\n')) {
      const l = line.trim();
      if (l.startsWith('//') || l === '') continue;
      let f = /^(optional|repeated) ([\w.]+) (\w+) = (\d+);/.exec(l);
      if (f) {
        fields.push([Number(f[4]), renames[m[1]]?.[f[3]] ?? f[3], qualify(f[2], pkg), f[1] === 'repeated' ? 1 : 0]);
        continue;
      }
      f = /^map<([\w.]+), ?([\w.]+)> (\w+) = (\d+);/.exec(l);
      if (f) fields.push([Number(f[4]), f[3], [qualify(f[1], pkg), qualify(f[2], pkg)], 2]);
    }
    messages[`${pkg}.${m[1]}`] = fields;
  }
}

/** The Go sources beside a generated.proto. */
function goSources(repo, proto) {
  const dir = proto.slice(0, proto.lastIndexOf('/') + 1);
  return git(repo, 'ls-tree', '--name-only', BRANCH, dir)
    .split('\n')
    .filter((p) => p.endsWith('.go') && !p.endsWith('_test.go') && !p.includes('generated'))
    .map((p) => git(repo, 'show', `${BRANCH}:${p}`));
}

for (const p of API) parse(git('kubernetes+api', 'show', `${BRANCH}:${p}`), jsonRenames(goSources('kubernetes+api', p)));
for (const p of MACHINERY) parse(git('kubernetes+apimachinery', 'show', `${BRANCH}:${p}`), jsonRenames(goSources('kubernetes+apimachinery', p)));
const ordered = Object.fromEntries(Object.keys(messages).sort().map((k) => [k, messages[k]]));
writeFileSync('src/http/protobuf/messages.json', JSON.stringify(ordered) + '\n');
console.log(`${Object.keys(ordered).length} messages`);
