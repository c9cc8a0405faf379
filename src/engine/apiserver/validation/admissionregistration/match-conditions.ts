/**
 * matchConditions of webhooks and policies: named CEL expressions, each compiled (the caller
 * passes the compile errors by index, as policies and webhooks compile in different
 * environments).
 */
import { duplicate, invalid, Path, required, tooMany, type ErrorList, type FieldError } from '../../../api/field';
import { isQualifiedName } from '../../../api/names';
import { objs, str } from '../core/json';

const maxMatchConditions = 64;

export function validateMatchConditions(conditions: unknown, fldPath: Path, compileError: (i: number) => FieldError | undefined = () => undefined): ErrorList {
  const list = objs(conditions);
  const errs: ErrorList = [];
  if (list.length > maxMatchConditions) errs.push(tooMany(fldPath, list.length, maxMatchConditions));
  const names = new Set<string>();
  list.forEach((c, i) => {
    const p = fldPath.index(i);
    if (str(c['expression']).trim() === '') errs.push(required(p.child('expression'), ''));
    else {
      const e = compileError(i);
      if (e) errs.push(e);
    }
    const name = str(c['name']);
    if (name === '') errs.push(required(p.child('name'), ''));
    else for (const msg of isQualifiedName(name)) errs.push(invalid(p.child('name'), name, msg));
    if (name.length > 0) {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}
