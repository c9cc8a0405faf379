/** ServiceAccount: only its metadata has rules. */
import { Path, type ErrorList } from '../../../api/field';
import { validateServiceAccountName } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { validateObjectMeta, validateObjectMetaUpdate } from './meta';

function validateServiceAccount(sa: KubeObject): ErrorList {
  return validateObjectMeta(sa.metadata, true, validateServiceAccountName, Path.root('metadata'));
}

registerValidator('', 'ServiceAccount', {
  create: validateServiceAccount,
  update: (sa, old) => [...validateObjectMetaUpdate(sa.metadata, old.metadata, Path.root('metadata')), ...validateServiceAccount(sa)],
});
