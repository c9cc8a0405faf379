/** Container env and envFrom. RelaxedEnvironmentVariableValidation is GA, so names use the relaxed rule. */
import { invalid, required, type ErrorList, type Path } from '../../../api/field';
import { isConfigMapKey, isRelaxedEnvVarName, nameIsDNSSubdomain } from '../../../api/names';
import { envFieldPaths, validateContainerResourceFieldSelector, validateObjectFieldSelector } from './downwardapi';
import { obj, objs, str, type Obj } from './json';

export function validateEnv(vars: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  objs(vars).forEach((ev, i) => {
    const idxPath = fldPath.index(i);
    const name = str(ev['name']);
    if (name.length === 0) errs.push(required(idxPath.child('name'), ''));
    else errs.push(...isRelaxedEnvVarName(name).map((m) => invalid(idxPath.child('name'), name, m)));
    errs.push(...validateEnvVarValueFrom(ev, idxPath.child('valueFrom')));
  });
  return errs;
}

function validateEnvVarValueFrom(ev: Obj, fldPath: Path): ErrorList {
  const from = obj(ev['valueFrom']);
  if (!from) return [];
  const errs: ErrorList = [];
  let numSources = 0;
  const fieldRef = obj(from['fieldRef']);
  if (fieldRef) {
    numSources++;
    errs.push(...validateObjectFieldSelector(fieldRef, envFieldPaths, fldPath.child('fieldRef')));
  }
  const resourceFieldRef = obj(from['resourceFieldRef']);
  if (resourceFieldRef) {
    numSources++;
    errs.push(...validateContainerResourceFieldSelector(resourceFieldRef, fldPath.child('resourceFieldRef'), false));
  }
  const configMapKeyRef = obj(from['configMapKeyRef']);
  if (configMapKeyRef) {
    numSources++;
    errs.push(...validateKeySelector(configMapKeyRef, fldPath.child('configMapKeyRef')));
  }
  const secretKeyRef = obj(from['secretKeyRef']);
  if (secretKeyRef) {
    numSources++;
    errs.push(...validateKeySelector(secretKeyRef, fldPath.child('secretKeyRef')));
  }
  if (numSources === 0) {
    errs.push(invalid(fldPath, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  } else if (str(ev['value']).length !== 0) {
    errs.push(invalid(fldPath, '', 'may not be specified when `value` is not empty'));
  } else if (numSources > 1) {
    errs.push(invalid(fldPath, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}

/** configMapKeyRef and secretKeyRef: both names are checked as secret names upstream. */
function validateKeySelector(s: Obj, fldPath: Path): ErrorList {
  const name = str(s['name']);
  const key = str(s['key']);
  const errs = nameIsDNSSubdomain(name, false).map((m) => invalid(fldPath.child('name'), name, m));
  if (key.length === 0) errs.push(required(fldPath.child('key'), ''));
  else errs.push(...isConfigMapKey(key).map((m) => invalid(fldPath.child('key'), key, m)));
  return errs;
}

export function validateEnvFrom(vars: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  objs(vars).forEach((ev, i) => {
    const idxPath = fldPath.index(i);
    const prefix = str(ev['prefix']);
    if (prefix.length > 0) errs.push(...isRelaxedEnvVarName(prefix).map((m) => invalid(idxPath.child('prefix'), prefix, m)));
    let numSources = 0;
    for (const kind of ['configMapRef', 'secretRef'] as const) {
      const ref = obj(ev[kind]);
      if (!ref) continue;
      numSources++;
      const name = str(ref['name']);
      if (name.length === 0) errs.push(required(idxPath.child(kind, 'name'), ''));
      else errs.push(...nameIsDNSSubdomain(name, true).map((m) => invalid(idxPath.child(kind, 'name'), name, m)));
    }
    if (numSources === 0) errs.push(invalid(fldPath, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (numSources > 1) errs.push(invalid(fldPath, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
