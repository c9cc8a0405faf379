import { isValidPathSegmentName, type NameValidator } from '../../../api/names';

export const rbacGroup = 'rbac.authorization.k8s.io';

/** ValidateRBACName: role and binding names only need to be safe as path segments. */
export const validateRBACName: NameValidator = (name) => isValidPathSegmentName(name);
