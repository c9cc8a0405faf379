/**
 * The flags that put the cluster in a real etcd instead of the simulated members, named as
 * kube-apiserver names them (--etcd-servers there is --etcd-endpoints here, as the issue and
 * etcdctl call it): the endpoints, and the client certificate and CA for an etcd served over
 * TLS, as kubeadm sets kube-apiserver up (--etcd-cafile, --etcd-certfile, --etcd-keyfile).
 */
import { readFileSync } from 'node:fs';
import { Clock } from '../engine/clock';
import { createStore, prefixEnd, type EtcdCredentials } from '../engine/store';
import type { Output } from './command';

export interface EtcdFlags {
  endpoints?: string[];
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

export const ETCD_FLAGS_USAGE = `      --etcd-endpoints <url>[,<url>...]
                          Store the cluster in this real etcd 3.4+ cluster (kube-apiserver's
                          --etcd-servers) instead of the simulated members. Data already there
                          is used as it is, as kube-apiserver would use it.
      --etcd-cafile <path>, --etcd-certfile <path>, --etcd-keyfile <path>
                          TLS for https:// endpoints: the CA that signed etcd's serving
                          certificates, and a client certificate and key etcd trusts.
`;

const FLAGS = new Set(['--etcd-endpoints', '--etcd-cafile', '--etcd-certfile', '--etcd-keyfile']);

/** Whether `flag` is one of these (its value is then read by parseEtcdFlag). */
export function isEtcdFlag(flag: string): boolean {
  return FLAGS.has(flag);
}

/** Records one flag's value; returns the usage error, if any. */
export function parseEtcdFlag(flag: string, value: string | undefined, into: EtcdFlags): string | undefined {
  if (value === undefined || value === '') return `error: flag needs an argument: ${flag}`;
  switch (flag) {
    case '--etcd-endpoints': {
      const urls = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
      for (const u of urls) {
        const problem = endpointProblem(u);
        if (problem) return `error: invalid --etcd-endpoints ${JSON.stringify(u)}: ${problem}`;
      }
      if (urls.length === 0) return 'error: --etcd-endpoints needs at least one URL';
      into.endpoints = [...(into.endpoints ?? []), ...urls];
      return undefined;
    }
    case '--etcd-cafile':
      into.caFile = value;
      return undefined;
    case '--etcd-certfile':
      into.certFile = value;
      return undefined;
    default:
      into.keyFile = value;
      return undefined;
  }
}

function endpointProblem(u: string): string | undefined {
  const notUrl = 'not a URL (use http://host:port or https://host:port)';
  if (!u.includes('://')) return notUrl;
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return notUrl;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `unsupported scheme ${JSON.stringify(url.protocol.slice(0, -1))} (use http or https)`;
  if (!url.port) return 'a port is required (etcd clients use 2379)';
  if (url.pathname !== '/' || url.search || url.hash || url.username) return 'only scheme, host and port are allowed';
  return undefined;
}

/**
 * Checks the flags as a whole and reads the certificate files. Undefined endpoints: the
 * simulated etcd. Returns the usage error as a string.
 */
export function resolveEtcdFlags(flags: EtcdFlags): { endpoints: string[]; credentials?: EtcdCredentials } | undefined | string {
  const tlsFlags = [flags.caFile, flags.certFile, flags.keyFile];
  if (!flags.endpoints) {
    return tlsFlags.some((f) => f !== undefined) ? 'error: --etcd-cafile, --etcd-certfile and --etcd-keyfile need --etcd-endpoints' : undefined;
  }
  const secure = flags.endpoints.filter((u) => u.startsWith('https:')).length;
  if (secure !== 0 && secure !== flags.endpoints.length) return 'error: --etcd-endpoints must be all http:// or all https://';
  if (secure === 0) {
    return tlsFlags.some((f) => f !== undefined) ? 'error: --etcd-cafile, --etcd-certfile and --etcd-keyfile are for https:// endpoints' : { endpoints: flags.endpoints };
  }
  if ((flags.certFile === undefined) !== (flags.keyFile === undefined)) return 'error: --etcd-certfile and --etcd-keyfile go together';
  const read = (path: string | undefined, flag: string): Buffer | string | undefined => {
    if (path === undefined) return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      return `error: cannot read ${flag} ${path}: ${err instanceof Error ? err.message : String(err)}`;
    }
  };
  const ca = read(flags.caFile, '--etcd-cafile');
  const cert = read(flags.certFile, '--etcd-certfile');
  const key = read(flags.keyFile, '--etcd-keyfile');
  for (const v of [ca, cert, key]) if (typeof v === 'string') return v;
  return { endpoints: flags.endpoints, credentials: { ca: ca as Buffer | undefined, cert: cert as Buffer | undefined, key: key as Buffer | undefined } };
}

/** How long the CLI waits for etcd to answer its first request. */
const CONNECT_TIMEOUT_MS = 10_000;

export interface EtcdContents {
  revision: number;
  /** Keys under /registry/, the prefix kube-apiserver stores the cluster under. */
  registryKeys: number;
}

/**
 * Asks the etcd what it holds before a cluster is built on it: its revision and how many keys
 * lie under /registry/. Returns the error to print when it does not answer in time.
 */
export async function probeEtcd(target: { endpoints: string[]; credentials?: EtcdCredentials }): Promise<EtcdContents | string> {
  const store = createStore({ backend: 'etcd', clock: new Clock(0), endpoints: target.endpoints, credentials: target.credentials });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('context deadline exceeded')), CONNECT_TIMEOUT_MS);
  });
  try {
    const range = await Promise.race([store.range({ key: '/registry/', rangeEnd: prefixEnd('/registry/'), countOnly: true }), deadline]);
    return { revision: range.header.revision, registryKeys: range.count };
  } catch (err) {
    return `error: etcd at ${target.endpoints.join(',')} did not answer: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    clearTimeout(timer);
    await store.close().catch(() => undefined);
  }
}

/**
 * The etcd flags as a command starts on them: resolved (a usage error is printed with the usage,
 * exit 2) and the etcd they name probed (one that does not answer: exit 1), its existing data
 * noticed. Returns the etcd to build the cluster on (undefined: the simulated one), or the exit code.
 */
export async function connectEtcd(flags: EtcdFlags, usage: string, stderr: Output['stderr']): Promise<{ endpoints: string[]; credentials?: EtcdCredentials } | undefined | number> {
  const etcd = resolveEtcdFlags(flags);
  if (typeof etcd === 'string') {
    stderr.write(`${etcd}\n\n${usage}`);
    return 2;
  }
  if (etcd) {
    const contents = await probeEtcd(etcd);
    if (typeof contents === 'string') {
      stderr.write(`${contents}\n`);
      return 1;
    }
    const notice = existingDataNotice(etcd.endpoints, contents);
    if (notice) stderr.write(notice);
  }
  return etcd;
}

/** The line that says a cluster starts from what an etcd already holds. */
export function existingDataNotice(endpoints: readonly string[], contents: EtcdContents): string | undefined {
  if (contents.registryKeys === 0) return undefined;
  return `kubesim: etcd at ${endpoints.join(',')} already holds ${contents.registryKeys} keys under /registry/ (revision ${contents.revision}); the cluster starts from them, as kube-apiserver would\n`;
}
