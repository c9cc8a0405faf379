/** Downward API selectors shared by env vars and downwardAPI volume files. */
import { invalid, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { isQualifiedName } from '../../../api/names';
import { str, type Obj } from './json';
import { parseQuantity } from './quantity';
import { fail, ok, type Result } from '../../../api/result';

export const envFieldPaths = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
].sort();

export const volumeFieldPaths = ['metadata.name', 'metadata.namespace', 'metadata.labels', 'metadata.annotations', 'metadata.uid'].sort();

const containerResourceFieldPaths = [
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
].sort();

const hugePagesPrefixes = ['limits.hugepages-', 'requests.hugepages-'];

const convertibleLabels = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']` -> path and subscript. */
function splitSubscript(fieldPath: string): { path: string; subscript: string } | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return { path: s.slice(0, at), subscript: s.slice(at + 2) };
}

/** pods.ConvertDownwardAPIFieldLabel: the internal field label, or the conversion error. */
function convertFieldLabel(version: string, label: string): Result<string> {
  if (version !== 'v1') return fail(`unsupported pod version: ${version}`);
  const sub = splitSubscript(label);
  if (sub) {
    if (sub.path === 'metadata.annotations' || sub.path === 'metadata.labels') return ok(label);
    return fail(`field label does not support subscript: ${label}`);
  }
  if (convertibleLabels.has(label)) return ok(label);
  if (label === 'spec.host') return ok('spec.nodeName');
  return fail(`field label not supported: ${label}`);
}

export function validateObjectFieldSelector(fs: Obj, expressions: readonly string[], fldPath: Path): ErrorList {
  const apiVersion = str(fs['apiVersion']);
  const fieldPath = str(fs['fieldPath']);
  if (apiVersion.length === 0) return [required(fldPath.child('apiVersion'), '')];
  if (fieldPath.length === 0) return [required(fldPath.child('fieldPath'), '')];
  const converted = convertFieldLabel(apiVersion, fieldPath);
  if (!converted.ok) {
    return [invalid(fldPath.child('fieldPath'), fieldPath, `error converting fieldPath: ${converted.error}`)];
  }
  const sub = splitSubscript(converted.value);
  if (sub) {
    switch (sub.path) {
      case 'metadata.annotations':
        return isQualifiedName(sub.subscript.toLowerCase()).map((m) => invalid(fldPath, sub.subscript.toLowerCase(), m));
      case 'metadata.labels':
        return isQualifiedName(sub.subscript).map((m) => invalid(fldPath, sub.subscript, m));
      default:
        return [invalid(fldPath, sub.path, 'does not support subscript')];
    }
  }
  if (!expressions.includes(converted.value)) return [notSupported(fldPath.child('fieldPath'), converted.value, expressions)];
  return [];
}

export function validateContainerResourceFieldSelector(fs: Obj, fldPath: Path, volume: boolean): ErrorList {
  const errs: ErrorList = [];
  const resource = str(fs['resource']);
  if (volume && str(fs['containerName']).length === 0) {
    errs.push(required(fldPath.child('containerName'), ''));
  } else if (resource.length === 0) {
    errs.push(required(fldPath.child('resource'), ''));
  } else if (!containerResourceFieldPaths.includes(resource) && !hugePagesPrefixes.some((p) => resource.startsWith(p))) {
    errs.push(notSupported(fldPath.child('resource'), resource, containerResourceFieldPaths));
  }
  errs.push(...validateContainerResourceDivisor(resource, fs['divisor'], fldPath));
  return errs;
}

const cpuDivisors = ['1m', '1'];
const byteDivisors = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];
const byteDivisorsText = 'only divisor\'s values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the';

function validateContainerResourceDivisor(resource: string, divisorValue: unknown, fldPath: Path): ErrorList {
  const divisor = parseQuantity(divisorValue);
  if (!divisor || divisor.isZero()) return [];
  const d = divisor.toString();
  const path = fldPath.child('divisor');
  const errs: ErrorList = [];
  switch (resource) {
    case 'limits.cpu':
    case 'requests.cpu':
      if (!cpuDivisors.includes(d)) errs.push(invalid(path, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
      break;
    case 'limits.memory':
    case 'requests.memory':
      if (!byteDivisors.includes(d)) errs.push(invalid(path, resource, `${byteDivisorsText} memory resource`));
      break;
    case 'limits.ephemeral-storage':
    case 'requests.ephemeral-storage':
      if (!byteDivisors.includes(d)) errs.push(invalid(path, resource, `${byteDivisorsText} local ephemeral storage resource`));
      break;
  }
  if (hugePagesPrefixes.some((p) => resource.startsWith(p)) && !byteDivisors.includes(d)) {
    errs.push(invalid(path, resource, `${byteDivisorsText} hugepages resource`));
  }
  return errs;
}
