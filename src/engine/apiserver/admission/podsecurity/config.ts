/**
 * The PodSecurity plugin's configuration (pod-security.admission.config.k8s.io/v1
 * PodSecurityConfiguration): the policy for namespaces without labels, and the exempt users,
 * runtime classes and namespaces. kube-apiserver without an admission configuration file runs
 * with every default privileged at latest and no exemptions (kube-system is not exempt).
 */
import { duplicate, invalid, Path, type ErrorList } from '../../../api/field';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../../api/names';
import { parseLevel, parseVersion, type Policy } from './api';

export interface PodSecurityDefaults {
  enforce?: string;
  'enforce-version'?: string;
  audit?: string;
  'audit-version'?: string;
  warn?: string;
  'warn-version'?: string;
}

export interface PodSecurityExemptions {
  usernames?: string[];
  runtimeClasses?: string[];
  namespaces?: string[];
}

export interface PodSecurityConfiguration {
  apiVersion?: string;
  kind?: string;
  defaults?: PodSecurityDefaults;
  exemptions?: PodSecurityExemptions;
}

/** A configuration with its defaults filled in and its policy resolved. */
export interface ResolvedConfiguration {
  readonly defaults: Policy;
  readonly exemptions: { readonly usernames: readonly string[]; readonly runtimeClasses: readonly string[]; readonly namespaces: readonly string[] };
}

const filled = (d: PodSecurityDefaults | undefined): Required<PodSecurityDefaults> => ({
  enforce: d?.enforce || 'privileged',
  'enforce-version': d?.['enforce-version'] || 'latest',
  audit: d?.audit || 'privileged',
  'audit-version': d?.['audit-version'] || 'latest',
  warn: d?.warn || 'privileged',
  'warn-version': d?.['warn-version'] || 'latest',
});

/** ValidatePodSecurityConfiguration, on the configuration after defaulting. */
export function validateConfiguration(c: PodSecurityConfiguration): ErrorList {
  const errs: ErrorList = [];
  const d = filled(c.defaults);
  for (const mode of ['enforce', 'warn', 'audit'] as const) {
    const level = d[mode];
    const lr = parseLevel(level);
    if (lr.error) errs.push(invalid(Path.root('defaults', mode), level, lr.error));
    const v = d[`${mode}-version`];
    const vr = parseVersion(v);
    if (vr.error) errs.push(invalid(Path.root('defaults', `${mode}-version`), v, vr.error));
  }
  const list = (key: keyof PodSecurityExemptions, check: (s: string) => string[]): void => {
    const seen = new Set<string>();
    (c.exemptions?.[key] ?? []).forEach((s, i) => {
      const path = Path.root('exemptions', key).index(i);
      const problems = check(s);
      if (problems.length > 0) errs.push(invalid(path, s, problems.join(', ')));
      else if (seen.has(s)) errs.push(duplicate(path, s));
      else seen.add(s);
    });
  };
  list('namespaces', (s) => nameIsDNSLabel(s, false));
  list('runtimeClasses', (s) => nameIsDNSSubdomain(s, false));
  list('usernames', (s) => (s === '' ? ['username must not be empty'] : []));
  return errs;
}

export function resolveConfiguration(c: PodSecurityConfiguration = {}): ResolvedConfiguration {
  const d = filled(c.defaults);
  const lv = (mode: 'enforce' | 'audit' | 'warn') => ({ level: parseLevel(d[mode]).level, version: parseVersion(d[`${mode}-version`]).version });
  return {
    defaults: { enforce: lv('enforce'), audit: lv('audit'), warn: lv('warn') },
    exemptions: {
      usernames: [...(c.exemptions?.usernames ?? [])],
      runtimeClasses: [...(c.exemptions?.runtimeClasses ?? [])],
      namespaces: [...(c.exemptions?.namespaces ?? [])],
    },
  };
}
