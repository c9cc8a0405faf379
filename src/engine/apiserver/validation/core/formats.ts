/** Field-error wrappers over the format checks (upstream's ValidateDNS1123Label and friends). */
import { invalid, type ErrorList, type Path } from '../../../api/field';
import { isDNS1123Label, isDNS1123Subdomain, isDNS1123SubdomainWithUnderscore, isQualifiedName, type NameValidator } from '../../../api/names';

export function validateDNS1123Label(value: string, fldPath: Path): ErrorList {
  return isDNS1123Label(value).map((m) => invalid(fldPath, value, m).withOrigin('format=dns-label'));
}

export function validateDNS1123Subdomain(value: string, fldPath: Path): ErrorList {
  return isDNS1123Subdomain(value).map((m) => invalid(fldPath, value, m));
}

export function validateDNS1123SubdomainWithUnderscore(value: string, fldPath: Path): ErrorList {
  return isDNS1123SubdomainWithUnderscore(value).map((m) => invalid(fldPath, value, m));
}

export function validateQualifiedName(value: string, fldPath: Path): ErrorList {
  return isQualifiedName(value).map((m) => invalid(fldPath, value, m).withOrigin('format=qualified-name'));
}

/** Runs a name validator (not as a prefix) and reports each message at the field. */
export function validateName(nameFn: NameValidator, value: string, fldPath: Path): ErrorList {
  return nameFn(value, false).map((m) => invalid(fldPath, value, m));
}
