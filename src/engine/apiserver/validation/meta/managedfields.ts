/**
 * managedFields and field manager names (metav1 validation, release-1.35).
 */
import { invalid, tooLong, type ErrorList, type Path } from '../../../api/field';
import { asArray, asObject, asString } from './json';

export const fieldManagerMaxLength = 128;
const maxSubresourceNameLength = 256;

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const isPrint = (ch: string): boolean => ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);

/** ValidateFieldManager: at most 128 bytes of printable characters (positions are byte offsets). */
export function validateFieldManager(fieldManager: string, fldPath: Path): ErrorList {
  // Printable ASCII is printable, one byte a character: the usual names need no closer look.
  if (fieldManager.length <= fieldManagerMaxLength && PRINTABLE_ASCII.test(fieldManager)) return [];
  const errs: ErrorList = [];
  if (byteLength(fieldManager) > fieldManagerMaxLength) errs.push(tooLong(fldPath, fieldManagerMaxLength));
  let offset = 0;
  for (const ch of fieldManager) {
    if (!isPrint(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalid(fldPath, fieldManager, `invalid character U+${code} (at position ${offset})`));
    }
    offset += byteLength(ch);
  }
  return errs;
}

/** ValidateManagedFields. */
export function validateManagedFields(managedFields: unknown, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  asArray(managedFields).forEach((entry, i) => {
    const f = asObject(entry) ?? {};
    const p = fldPath.index(i);
    const operation = asString(f['operation']);
    if (operation !== 'Apply' && operation !== 'Update') errs.push(invalid(p.child('operation'), operation, 'must be `Apply` or `Update`'));
    const fieldsType = asString(f['fieldsType']);
    if (fieldsType.length > 0 && fieldsType !== 'FieldsV1') errs.push(invalid(p.child('fieldsType'), fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(asString(f['manager']), p.child('manager')));
    if (byteLength(asString(f['subresource'])) > maxSubresourceNameLength) errs.push(tooLong(p.child('subresource'), maxSubresourceNameLength));
  });
  return errs;
}
