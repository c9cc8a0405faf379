/**
 * Name and format checks of k8s.io/apimachinery/pkg/util/validation and pkg/api/validate/content
 * (release-1.35). Each check returns the list of messages kube-apiserver prints after
 * "Invalid value: ...: "; an empty list means valid. Lengths are byte lengths, as Go's len().
 *
 * Two message families coexist upstream: util/validation says "must be no more than N
 * characters" while the newer content package (label keys and values) says "... N bytes".
 */
import { invalid, required, type ErrorList, type Path } from './field';
import { utf8Length } from './utf8';

/** RegexError: the message, examples and the regular expression, as upstream formats them. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** util/validation.MaxLenError. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** content.MaxLenError (label keys and values). */
function contentMaxLenError(length: number): string {
  return `must be no more than ${length} bytes`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

const anchored = (fmt: string): RegExp => new RegExp(`^(?:${fmt})$`);

// --- DNS names -------------------------------------------------------------------------------

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const DNS1123LabelMaxLength = 63;
const dns1123LabelRegexp = anchored(dns1123LabelFmt);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrorMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const DNS1123SubdomainMaxLength = 253;
const dns1123SubdomainRegexp = anchored(dns1123SubdomainFmt);

const dns1123LabelFmtWithUnderscore = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmtWithUnderscore = `${dns1123LabelFmtWithUnderscore}(\\.${dns1123LabelFmtWithUnderscore})*`;
const dns1123SubdomainErrorMsgFG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainRegexpWithUnderscore = anchored(dns1123SubdomainFmtWithUnderscore);

const dns1123SubdomainCaselessErrorMsg =
  "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainCaselessRegexp = new RegExp(`^(?:${dns1123SubdomainFmt})$`, 'i');

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
export const DNS1035LabelMaxLength = 63;
const dns1035LabelRegexp = anchored(dns1035LabelFmt);

const wildcardDNS1123SubdomainFmt = `\\*\\.${dns1123SubdomainFmt}`;
const wildcardDNS1123SubdomainErrMsg =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const wildcardDNS1123SubdomainRegexp = anchored(wildcardDNS1123SubdomainFmt);

export function isDNS1123Label(value: string): string[] {
  return dns1123Label(value, maxLenError);
}

function dns1123Label(value: string, lenError: (n: number) => string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > DNS1123LabelMaxLength) errs.push(lenError(DNS1123LabelMaxLength));
  if (!dns1123LabelRegexp.test(value)) {
    // A valid subdomain of acceptable length that is not a label can only be wrong by its dots.
    if (dns1123SubdomainRegexp.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  return dns1123Subdomain(value, maxLenError);
}

function dns1123Subdomain(value: string, lenError: (n: number) => string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > DNS1123SubdomainMaxLength) errs.push(lenError(DNS1123SubdomainMaxLength));
  if (!dns1123SubdomainRegexp.test(value)) errs.push(regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

/** content.IsDNS1123SubdomainCaseless: upper case allowed (used by a few legacy driver names). */
export function isDNS1123SubdomainCaseless(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > DNS1123SubdomainMaxLength) errs.push(contentMaxLenError(DNS1123SubdomainMaxLength));
  if (!dns1123SubdomainCaselessRegexp.test(value)) {
    errs.push(regexError(dns1123SubdomainCaselessErrorMsg, dns1123SubdomainFmt, 'Example.com'));
  }
  return errs;
}

export function isDNS1123SubdomainWithUnderscore(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!dns1123SubdomainRegexpWithUnderscore.test(value)) {
    errs.push(regexError(dns1123SubdomainErrorMsgFG, dns1123SubdomainFmtWithUnderscore, 'example.com'));
  }
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > DNS1035LabelMaxLength) errs.push(maxLenError(DNS1035LabelMaxLength));
  if (!dns1035LabelRegexp.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!wildcardDNS1123SubdomainRegexp.test(value)) {
    errs.push(regexError(wildcardDNS1123SubdomainErrMsg, wildcardDNS1123SubdomainFmt, '*.example.com'));
  }
  return errs;
}

// --- label keys (qualified names) and values ------------------------------------------------

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyMaxLength = 63;
const labelKeyRegexp = anchored(labelKeyFmt);

/** content.IsLabelKey (util/validation.IsQualifiedName): `[prefix/]name`. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part ' + emptyError());
    else errs.push(...dns1123Subdomain(prefix, contentMaxLenError).map((m) => 'prefix part ' + m));
  } else {
    return [
      'a valid label key ' +
        regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part ' + emptyError());
  else if (utf8Length(name) > labelKeyMaxLength) errs.push('name part ' + contentMaxLenError(labelKeyMaxLength));
  if (!labelKeyRegexp.test(name)) errs.push('name part ' + regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc'));
  return errs;
}

const labelValueFmt = `(${labelKeyFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LabelValueMaxLength = 63;
const labelValueRegexp = anchored(labelValueFmt);

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > LabelValueMaxLength) errs.push(contentMaxLenError(LabelValueMaxLength));
  if (!labelValueRegexp.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

// --- identifiers, ports, ids ---------------------------------------------------------------

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const identifierErrMsg = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const cIdentifierRegexp = anchored(cIdentifierFmt);

export function isCIdentifier(value: string): string[] {
  return cIdentifierRegexp.test(value) ? [] : [regexError(identifierErrMsg, cIdentifierFmt, 'my_name', 'MY_NAME', 'MyName')];
}

export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

export function isInRange(value: number, min: number, max: number): string[] {
  return value >= min && value <= max ? [] : [inclusiveRangeError(min, max)];
}

const maxInt32 = 2147483647;

export function isValidGroupID(gid: number): string[] {
  return gid >= 0 && gid <= maxInt32 ? [] : [inclusiveRangeError(0, maxInt32)];
}

export function isValidUserID(uid: number): string[] {
  return uid >= 0 && uid <= maxInt32 ? [] : [inclusiveRangeError(0, maxInt32)];
}

export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (utf8Length(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

// --- other formats ---------------------------------------------------------------------------

const percentFmt = '[0-9]+%';
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'";

export function isValidPercent(percent: string): string[] {
  return anchored(percentFmt).test(percent) ? [] : [regexError(percentErrMsg, percentFmt, '1%', '93%')];
}

const httpHeaderNameFmt = '[-A-Za-z0-9]+';
const httpHeaderNameErrMsg = "a valid HTTP header must consist of alphanumeric characters or '-'";

export function isHTTPHeaderName(value: string): string[] {
  return anchored(httpHeaderNameFmt).test(value) ? [] : [regexError(httpHeaderNameErrMsg, httpHeaderNameFmt, 'X-Header-Name')];
}

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const envVarNameFmtErrMsg =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const relaxedEnvVarNameFmtErrMsg = "a valid environment variable name must consist only of printable ASCII characters other than '='";

export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!anchored(envVarNameFmt).test(value)) {
    errs.push(regexError(envVarNameFmtErrMsg, envVarNameFmt, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  }
  errs.push(...hasChDirPrefix(value));
  return errs;
}

/** The check used while RelaxedEnvironmentVariableValidation is on (the 1.35 default). */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push('environment variable name ' + emptyError());
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (cp > 0x7e || cp < 0x20 || ch === '=') {
      errs.push(relaxedEnvVarNameFmtErrMsg);
      break;
    }
  }
  return errs;
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!anchored(configMapKeyFmt).test(value)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  errs.push(...hasChDirPrefix(value));
  return errs;
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const decimalIntegerErrMsg = 'must be a valid decimal integer in canonical form';

/** content.IsDecimalInteger: "0" or an integer without leading zeros or a plus sign. */
export function isDecimalInteger(value: string): string[] {
  if (value.length === 0) return [emptyError()];
  return /^(0|-?[1-9][0-9]*)$/.test(value) ? [] : [decimalIntegerErrMsg];
}

// --- domain-qualified names (these report field errors themselves) --------------------------

/** IsFullyQualifiedName: a DNS subdomain with at least three segments. */
export function isFullyQualifiedName(fldPath: Path | undefined, name: string): ErrorList {
  if (name.length === 0) return [required(fldPath, '')];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(fldPath, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalid(fldPath, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** IsFullyQualifiedDomainName: two or more segments, a trailing dot allowed. */
export function isFullyQualifiedDomainName(fldPath: Path | undefined, value: string): ErrorList {
  if (value.length === 0) return [required(fldPath, '')];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(fldPath, name, errs.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [invalid(fldPath, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const labelErrs = isDNS1123Label(label);
    if (labelErrs.length > 0) return [invalid(fldPath, label, labelErrs.join(','))];
  }
  return [];
}

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/** IsDomainPrefixedPath: `acme.io/foo`. */
export function isDomainPrefixedPath(fldPath: Path | undefined, dpPath: string): ErrorList {
  if (dpPath.length === 0) return [required(fldPath, '')];
  const slash = dpPath.indexOf('/');
  const host = slash < 0 ? dpPath : dpPath.slice(0, slash);
  const path = slash < 0 ? '' : dpPath.slice(slash + 1);
  if (slash < 0 || host.length === 0 || path.length === 0) {
    return [invalid(fldPath, dpPath, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs: ErrorList = isDNS1123Subdomain(host).map((m) => invalid(fldPath, host, m));
  if (!anchored(httpPathFmt).test(path)) return [...errs, invalid(fldPath, path, regexError('Invalid path', httpPathFmt))];
  return errs;
}

/** IsDomainPrefixedKey: a label key that must have a prefix. */
export function isDomainPrefixedKey(fldPath: Path | undefined, key: string): ErrorList {
  if (key.length === 0) return [required(fldPath, '')];
  const errs = isQualifiedName(key).map((m) => invalid(fldPath, key, m));
  if (errs.length > 0) return errs;
  if (key.split('/').length !== 2) return [invalid(fldPath, key, 'must be a domain-prefixed key (such as "acme.io/foo")')];
  return [];
}

// --- object names (pkg/api/validation and pkg/api/validation/path) --------------------------

/** A ValidateNameFunc: prefix is true when the value is a generateName that gets a suffix. */
export type NameValidator = (name: string, prefix: boolean) => string[];

/**
 * With generateName a random suffix follows, so a trailing dash is acceptable. Upstream replaces
 * the last two characters with "a" (not just the dash), which can hide an invalid
 * second-to-last character; kept for identical results.
 */
export function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return name.slice(0, -2) + 'a';
  return name;
}

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);
export const validateNamespaceName: NameValidator = nameIsDNSLabel;
export const validateServiceAccountName: NameValidator = nameIsDNSSubdomain;

const nameMayNotBe = ['.', '..'];
const nameMayNotContain = ['/', '%'];

/** path.IsValidPathSegmentName: names that become REST path segments and etcd keys. */
export function isValidPathSegmentName(name: string): string[] {
  for (const bad of nameMayNotBe) if (name === bad) return [`may not be '${bad}'`];
  return isValidPathSegmentPrefix(name);
}

export function isValidPathSegmentPrefix(name: string): string[] {
  return nameMayNotContain.filter((bad) => name.includes(bad)).map((bad) => `may not contain '${bad}'`);
}

/** path.ValidatePathSegmentName, a NameValidator for kinds whose names only need to be path-safe. */
export const validatePathSegmentName: NameValidator = (name, prefix) =>
  prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
