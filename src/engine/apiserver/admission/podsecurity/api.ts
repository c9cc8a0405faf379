/**
 * The Pod Security Standards' vocabulary (k8s.io/pod-security-admission/api): levels, policy
 * versions, the namespace labels that choose them, and how a namespace's labels resolve to the
 * enforce, audit and warn policies it is held to.
 */
import { invalid, Path, type ErrorList } from '../../../api/field';

export type Level = 'privileged' | 'baseline' | 'restricted';

const VALID_LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** A policy version: `latest` or `v1.<minor>` (only major version 1 exists). */
export interface Version {
  readonly minor: number;
  readonly latest: boolean;
}

export const LATEST: Version = { minor: 0, latest: true };

export const version = (minor: number): Version => ({ minor, latest: false });

export function versionString(v: Version): string {
  return v.latest ? 'latest' : `v1.${v.minor}`;
}

/** Whether a is older than b; latest is newer than every numbered version. */
export function older(a: Version, b: Version): boolean {
  if (a.latest) return false;
  if (b.latest) return true;
  return a.minor < b.minor;
}

export const sameVersion = (a: Version, b: Version): boolean => a.latest === b.latest && a.minor === b.minor;

export interface LevelVersion {
  readonly level: Level;
  readonly version: Version;
}

export const levelVersionString = (lv: LevelVersion): string => `${lv.level}:${versionString(lv.version)}`;

export const sameLevelVersion = (a: LevelVersion, b: LevelVersion): boolean => a.level === b.level && sameVersion(a.version, b.version);

/** Both privileged, or the same level and version. */
export const equivalentLevelVersion = (a: LevelVersion, b: LevelVersion): boolean =>
  (a.level === 'privileged' && b.level === 'privileged') || sameLevelVersion(a, b);

export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

export const fullyPrivileged = (p: Policy): boolean => p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';

export const equivalentPolicy = (a: Policy, b: Policy): boolean =>
  equivalentLevelVersion(a.enforce, b.enforce) && equivalentLevelVersion(a.audit, b.audit) && equivalentLevelVersion(a.warn, b.warn);

export const LABEL_PREFIX = 'pod-security.kubernetes.io/';
export const ENFORCE_LEVEL_LABEL = `${LABEL_PREFIX}enforce`;
export const ENFORCE_VERSION_LABEL = `${LABEL_PREFIX}enforce-version`;
export const AUDIT_LEVEL_LABEL = `${LABEL_PREFIX}audit`;
export const AUDIT_VERSION_LABEL = `${LABEL_PREFIX}audit-version`;
export const WARN_LEVEL_LABEL = `${LABEL_PREFIX}warn`;
export const WARN_VERSION_LABEL = `${LABEL_PREFIX}warn-version`;

/** Audit annotation keys, prefixed with LABEL_PREFIX when they are added to the audit event. */
export const EXEMPTION_REASON_ANNOTATION = 'exempt';
export const AUDIT_VIOLATIONS_ANNOTATION = 'audit-violations';
export const ENFORCED_POLICY_ANNOTATION = 'enforce-policy';

/** A level, or restricted and an error text for anything else. */
export function parseLevel(text: string): { level: Level; error?: string } {
  if ((VALID_LEVELS as readonly string[]).includes(text)) return { level: text as Level };
  return { level: 'restricted', error: `must be one of ${VALID_LEVELS.join(', ')}` };
}

const VERSION_PATTERN = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** A version, or latest and an error text for anything else. */
export function parseVersion(text: string): { version: Version; error?: string } {
  if (text === 'latest') return { version: LATEST };
  const m = VERSION_PATTERN.exec(text);
  const minor = m ? Number(m[1]) : NaN;
  // Go's strconv.Atoi refuses what does not fit an int.
  if (!m || !Number.isSafeInteger(minor)) return { version: LATEST, error: 'must be "latest" or "v1.x"' };
  return { version: version(minor) };
}

/** -1, 0 or 1 as a is less strict than, as strict as, or stricter than b. */
export function compareLevels(a: Level, b: Level): number {
  if (a === b) return 0;
  if (a === 'privileged') return -1;
  if (a === 'restricted') return 1;
  return b === 'privileged' ? 1 : -1;
}

const LABELS_PATH = Path.root('metadata', 'labels');

/**
 * The policy a namespace's labels select, falling back to the defaults for what they leave
 * out. A policy always comes back; invalid labels add an error each and resolve as upstream
 * does: an invalid enforce level enforces restricted, invalid audit or warn levels fail open
 * (privileged), an invalid version means latest. Warn follows a stricter enforce level that
 * the labels set when no warn level is given.
 */
export function policyToEvaluate(labels: Readonly<Record<string, string>> | undefined, defaults: Policy): { policy: Policy; errors: ErrorList } {
  const errors: ErrorList = [];
  if (!labels || Object.keys(labels).length === 0) return { policy: defaults, errors };
  let { enforce, audit, warn } = defaults;
  const has = (k: string): boolean => Object.hasOwn(labels, k);
  const fail = (label: string, value: string, error: string | undefined): boolean => {
    if (error !== undefined) errors.push(invalid(LABELS_PATH.key(label), value, error));
    return error !== undefined;
  };
  let hasEnforceLevel = false;
  if (has(ENFORCE_LEVEL_LABEL)) {
    const v = labels[ENFORCE_LEVEL_LABEL]!;
    const r = parseLevel(v);
    enforce = { ...enforce, level: r.level };
    hasEnforceLevel = !fail(ENFORCE_LEVEL_LABEL, v, r.error);
  }
  if (has(ENFORCE_VERSION_LABEL)) {
    const v = labels[ENFORCE_VERSION_LABEL]!;
    const r = parseVersion(v);
    enforce = { ...enforce, version: r.version };
    fail(ENFORCE_VERSION_LABEL, v, r.error);
  }
  if (has(AUDIT_LEVEL_LABEL)) {
    const v = labels[AUDIT_LEVEL_LABEL]!;
    const r = parseLevel(v);
    audit = { ...audit, level: fail(AUDIT_LEVEL_LABEL, v, r.error) ? 'privileged' : r.level };
  }
  if (has(AUDIT_VERSION_LABEL)) {
    const v = labels[AUDIT_VERSION_LABEL]!;
    const r = parseVersion(v);
    audit = { ...audit, version: r.version };
    fail(AUDIT_VERSION_LABEL, v, r.error);
  }
  const hasWarnLevel = has(WARN_LEVEL_LABEL);
  if (hasWarnLevel) {
    const v = labels[WARN_LEVEL_LABEL]!;
    const r = parseLevel(v);
    warn = { ...warn, level: fail(WARN_LEVEL_LABEL, v, r.error) ? 'privileged' : r.level };
  }
  const hasWarnVersion = has(WARN_VERSION_LABEL);
  if (hasWarnVersion) {
    const v = labels[WARN_VERSION_LABEL]!;
    const r = parseVersion(v);
    warn = { ...warn, version: r.version };
    fail(WARN_VERSION_LABEL, v, r.error);
  }
  if (!hasWarnLevel && hasEnforceLevel && compareLevels(enforce.level, warn.level) > 0) {
    warn = { level: enforce.level, version: hasWarnVersion ? warn.version : enforce.version };
  }
  return { policy: { enforce, audit, warn }, errors };
}
