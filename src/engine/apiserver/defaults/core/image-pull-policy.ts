/**
 * The default pull policy of an image reference: Always for the "latest" tag, written or implied
 * (no tag and no digest), IfNotPresent otherwise, including for references the container
 * runtime's reference grammar rejects (kube-apiserver ignores the parse error here and leaves the
 * rejection to validation). The grammar is distribution/reference's, applied after Docker Hub
 * names are normalised ("nginx" -> "docker.io/library/nginx").
 */
import { own } from '../../../api/own';


const pathComponent = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const host = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[(?:[a-fA-F0-9:]+)\\])`;
const name = `(?:${host}(?::[0-9]+)?/)?${pathComponent}(?:/${pathComponent})*`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';
const reference = new RegExp(`^(${name})(?::(${tag}))?(?:@(${digest}))?$`);
const hexIdentifier = /^[a-f0-9]{64}$/;
const nameTotalLengthMax = 255;
const digestHexLength: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };

/** The tag ParseImageName reports ("latest" when neither tag nor digest), or undefined on error. */
export function imageTag(image: string): string | undefined {
  if (hexIdentifier.test(image)) return undefined;
  const slash = image.indexOf('/');
  let domain = 'docker.io';
  let remainder = image;
  if (slash >= 0) {
    const first = image.slice(0, slash);
    if (/[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first) {
      domain = first === 'index.docker.io' ? 'docker.io' : first;
      remainder = image.slice(slash + 1);
    }
  }
  if (domain === 'docker.io' && !remainder.includes('/')) remainder = `library/${remainder}`;
  const colon = remainder.indexOf(':');
  const remote = colon >= 0 ? remainder.slice(0, colon) : remainder;
  if (remote.toLowerCase() !== remote) return undefined;

  const m = reference.exec(`${domain}/${remainder}`);
  if (!m) return undefined;
  const [, repository = '', tagged = '', digested = ''] = m;
  if (repository.length > nameTotalLengthMax) return undefined;
  if (digested !== '' && !validDigest(digested)) return undefined;
  if (tagged === '' && digested === '') return 'latest';
  return tagged;
}

function validDigest(d: string): boolean {
  const [algorithm = '', encoded = ''] = d.split(':');
  const length = own(digestHexLength, algorithm);
  return length !== undefined && encoded.length === length && /^[a-f0-9]+$/.test(encoded);
}

export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  return imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}
