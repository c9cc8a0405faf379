/**
 * PatchOptions validation (apimachinery's ValidatePatchOptions): apply needs a field manager,
 * other patch types may not ask for force, and a manager name is short and printable.
 */
import type { ErrorList } from '../../api/field';
import { Path, forbidden, invalid, required, tooLong } from '../../api/field';
import { invalidError, type StatusError } from '../../api/status';
import type { PatchType } from '../request';

export const FIELD_MANAGER_MAX_LENGTH = 128;

export interface PatchOptions {
  fieldManager?: string;
  /** Present (true or false) only when the request set it. */
  force?: boolean;
}

/** The "PatchOptions.meta.k8s.io \"\" is invalid" error, or undefined when the options are fine. */
export function validatePatchOptions(options: PatchOptions, patchType: PatchType): StatusError | undefined {
  const errs: ErrorList = [];
  const manager = options.fieldManager ?? '';
  if (patchType === 'apply') {
    // kubectl defaults it; controllers and other clients must set it explicitly.
    if (manager === '') errs.push(required(Path.root('fieldManager'), 'is required for apply patch'));
  } else if (options.force !== undefined) {
    errs.push(forbidden(Path.root('force'), 'may not be specified for non-apply patch'));
  }
  errs.push(...validateFieldManager(manager, Path.root('fieldManager')));
  if (errs.length === 0) return undefined;
  return invalidError({ group: 'meta.k8s.io', name: 'PatchOptions' }, '', errs);
}

/** ValidateFieldManager: at most 128 bytes, every character printable. */
export function validateFieldManager(manager: string, path: Path): ErrorList {
  const errs: ErrorList = [];
  if (utf8Length(manager) > FIELD_MANAGER_MAX_LENGTH) errs.push(tooLong(path, FIELD_MANAGER_MAX_LENGTH));
  let pos = 0;
  for (const ch of manager) {
    const cp = ch.codePointAt(0)!;
    if (!isGoPrint(ch)) {
      const hex = cp.toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalid(path, manager, `invalid character U+${hex} (at position ${pos})`));
    }
    pos += utf8Length(ch);
  }
  return errs;
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isGoPrint(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

const encoder = new TextEncoder();

function utf8Length(s: string): number {
  return encoder.encode(s).length;
}
