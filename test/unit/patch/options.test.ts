import assert from 'node:assert/strict';
import { validatePatchOptions } from '../../../src/engine/apiserver/patch';

describe('PatchOptions validation', () => {
  it('requires a field manager for apply', () => {
    const err = validatePatchOptions({}, 'apply');
    assert.ok(err);
    assert.equal(err.code, 422);
    assert.equal(err.status.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    assert.deepStrictEqual(err.status.details, {
      group: 'meta.k8s.io',
      kind: 'PatchOptions',
      causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }],
    });
  });

  it('forbids force outside apply, even false', () => {
    assert.equal(
      validatePatchOptions({ force: false }, 'merge')?.status.message,
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
    assert.equal(validatePatchOptions({ force: true, fieldManager: 'x' }, 'apply'), undefined);
  });

  it('checks the manager name', () => {
    assert.equal(
      validatePatchOptions({ fieldManager: 'a'.repeat(129) }, 'strategic')?.status.message,
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
    );
    assert.equal(
      validatePatchOptions({ fieldManager: 'ab\u0007' }, 'json')?.status.message,
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "ab\\a": invalid character U+0007 (at position 2)',
    );
    assert.equal(validatePatchOptions({ fieldManager: 'kubectl-edit' }, 'strategic'), undefined);
  });
});
