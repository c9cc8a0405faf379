/**
 * Image references as containerd sees them: "nginx:1.27" is docker.io/library/nginx:1.27, an
 * untagged name gets :latest, and each image has a digest and a size. Digests and sizes are
 * derived from the name (not from a node's random stream) so that every node agrees on them.
 */
import { goQuote } from '../api/gofmt';
import { Random } from '../random';
import { table } from '../api/own';
import { fail, ok, type Result } from '../api/result';

export interface ImageRef {
  /** "docker.io/library/nginx" */
  readonly repository: string;
  /** "docker.io/library/nginx:1.27" (or the digest form when the reference pins one). */
  readonly tagged: string;
  /** "docker.io/library/nginx@sha256:..." */
  readonly digested: string;
  /** The registry host: "docker.io", "registry.k8s.io", "example.invalid". */
  readonly domain: string;
  /** The tag, or "" for a reference pinned by digest. */
  readonly tag: string;
  readonly sizeBytes: number;
}

const DEFAULT_DOMAIN = 'docker.io';

/** Sizes of a few well-known images, so that the usual examples print familiar numbers. */
const KNOWN_SIZES = table<number>({
  'docker.io/library/nginx': 72_099_410,
  'docker.io/library/busybox': 2_155_023,
  'docker.io/library/redis': 45_271_134,
  'docker.io/library/postgres': 158_342_571,
  'registry.k8s.io/pause': 320_368,
});

const NAME_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

/** parsers.ParseImageName's verdict on a reference, in the kubelet's words, or the parsed reference. */
export function parseImageRef(image: string): Result<ImageRef> {
  const invalid = (detail: string) => fail(`couldn't parse image name ${goQuote(image)}: invalid reference format${detail}`);
  let rest = image;
  let digest = '';
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return invalid('');
  }
  let tag = '';
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return invalid('');
  }
  const slash = rest.indexOf('/');
  const first = slash < 0 ? '' : rest.slice(0, slash);
  const hasDomain = first !== '' && (first.includes('.') || first.includes(':') || first === 'localhost');
  const domain = hasDomain ? first : DEFAULT_DOMAIN;
  let path = hasDomain ? rest.slice(slash + 1) : rest;
  if (domain === DEFAULT_DOMAIN && !path.includes('/')) path = `library/${path}`;
  if (path !== path.toLowerCase()) return invalid(`: repository name (${path}) must be lowercase`);
  if (path === '' || !path.split('/').every((c) => NAME_COMPONENT.test(c))) return invalid('');
  const repository = `${domain}/${path}`;
  if (!digest && !tag) tag = 'latest';
  const pinned = digest || `sha256:${hashHex(`${repository}:${tag}`)}`;
  return ok({
    repository,
    domain,
    tag: digest ? '' : tag,
    tagged: digest ? `${repository}@${digest}` : `${repository}:${tag}`,
    digested: `${repository}@${pinned}`,
    sizeBytes: KNOWN_SIZES[repository] ?? 5_000_000 + (hashWord(repository) % 120_000_000),
  });
}

/** 64 hex digits derived from a text: a stand-in for a content digest or container ID. */
export function hashHex(text: string): string {
  const r = new Random(text);
  let out = '';
  for (let i = 0; i < 8; i++) out += r.nextUint32().toString(16).padStart(8, '0');
  return out;
}

function hashWord(text: string): number {
  return new Random(text).nextUint32();
}
