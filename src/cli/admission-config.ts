/**
 * kube-apiserver's --admission-control-config-file (apiserver.config.k8s.io/v1
 * AdmissionConfiguration): kubesim reads the PodSecurity plugin's configuration from it, inline
 * (`configuration:`) or from the file its `path:` names (relative to the configuration file).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import type { PodSecurityConfiguration } from '../engine/apiserver/admission/podsecurity/config';

const POD_SECURITY_KINDS = new Set(['pod-security.admission.config.k8s.io/v1/PodSecurityConfiguration', 'pod-security.admission.config.k8s.io/v1beta1/PodSecurityConfiguration']);

/** The PodSecurity configuration the file gives, undefined when it has none, or an error text. */
export function podSecurityFromAdmissionConfig(file: string): PodSecurityConfiguration | undefined | string {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    return `error: failed to read admission control configuration from "${file}" [${err instanceof Error ? err.message : String(err)}]`;
  }
  const o = doc as { apiVersion?: string; kind?: string; plugins?: { name?: string; path?: string; configuration?: unknown }[] };
  if (!o || o.kind !== 'AdmissionConfiguration' || !String(o.apiVersion ?? '').startsWith('apiserver.config.k8s.io/')) {
    return `error: failed to read admission control configuration from "${file}": not an apiserver.config.k8s.io AdmissionConfiguration`;
  }
  const plugin = (o.plugins ?? []).find((p) => p?.name === 'PodSecurity');
  if (!plugin) return undefined;
  let config = plugin.configuration;
  if (config === undefined && plugin.path) {
    try {
      config = parse(readFileSync(resolve(dirname(file), plugin.path), 'utf8'));
    } catch (err) {
      return `error: couldn't open PodSecurity admission plugin configuration ${plugin.path}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  const c = config as PodSecurityConfiguration | undefined;
  if (!c) return undefined;
  if (!POD_SECURITY_KINDS.has(`${c.apiVersion ?? ''}/${c.kind ?? ''}`)) {
    return `error: PodSecurity configuration: expected pod-security.admission.config.k8s.io/v1 PodSecurityConfiguration, got ${c.apiVersion ?? ''} ${c.kind ?? ''}`;
  }
  return c;
}
