/** Checks on file-system paths inside volumes and mounts (relative, no backsteps). */
import { invalid, type ErrorList, type Path } from '../../../api/field';

/** Go's path.IsAbs. */
export function isAbs(p: string): boolean {
  return p.startsWith('/');
}

/** No element of the path may be "..". Windows separators count too (filepath.ToSlash). */
export function validatePathNoBacksteps(target: string, fldPath: Path): ErrorList {
  const parts = target.replace(/\\/g, '/').split('/');
  return parts.includes('..') ? [invalid(fldPath, target, "must not contain '..'")] : [];
}

export function validateLocalDescendingPath(target: string, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  if (isAbs(target)) errs.push(invalid(fldPath, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, fldPath));
  return errs;
}

export function validateLocalNonReservedPath(target: string, fldPath: Path): ErrorList {
  const errs = validateLocalDescendingPath(target, fldPath);
  // A leading "../" was already reported as a backstep.
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(invalid(fldPath, target, "must not start with '..'"));
  return errs;
}

/** Go's path.Clean. */
export function cleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  if (rooted) return '/' + joined;
  return joined === '' ? '.' : joined;
}
