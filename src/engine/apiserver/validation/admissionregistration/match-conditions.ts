/**
 * matchConditions of webhooks and policies: named CEL expressions. The expressions are not
 * compiled here (kubesim has no CEL), so only names, presence and count are checked.
 */
import { duplicate, invalid, Path, required, tooMany, type ErrorList } from '../../../api/field';
import { isQualifiedName } from '../../../api/names';
import { objs, str } from '../core/json';

const maxMatchConditions = 64;

export function validateMatchConditions(conditions: unknown, fldPath: Path): ErrorList {
  const list = objs(conditions);
  const errs: ErrorList = [];
  if (list.length > maxMatchConditions) errs.push(tooMany(fldPath, list.length, maxMatchConditions));
  const names = new Set<string>();
  list.forEach((c, i) => {
    const p = fldPath.index(i);
    if (str(c['expression']).trim() === '') errs.push(required(p.child('expression'), ''));
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
