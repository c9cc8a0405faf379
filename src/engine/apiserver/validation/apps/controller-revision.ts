/**
 * ControllerRevision rules (pkg/apis/apps/validation): a snapshot of a workload's template that
 * never changes once written.
 */
import { Path, required, type ErrorList } from '../../../api/field';
import { nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { int } from '../core/json';
import { validateImmutableField, validateNonnegativeField, validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';

function validateControllerRevision(r: KubeObject): ErrorList {
  const errs = validateObjectMeta(r.metadata, true, nameIsDNSSubdomain, Path.root('metadata'));
  if (r['data'] === undefined || r['data'] === null) errs.push(required(Path.root('data'), 'data is mandatory'));
  return [...errs, ...validateNonnegativeField(int(r['revision']), Path.root('revision'))];
}

registerValidator('apps', 'ControllerRevision', {
  create: validateControllerRevision,
  update: (r, old) => [
    ...validateObjectMetaUpdate(r.metadata, old.metadata, Path.root('metadata')),
    ...validateControllerRevision(r),
    ...validateImmutableField(r['data'] ?? null, old['data'] ?? null, Path.root('data')),
  ],
});
