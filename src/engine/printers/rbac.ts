/** kubectl get rolebindings and clusterrolebindings (roles print with the default columns). */
import type { KubeObject } from '../api/types';
import { AGE, NAME } from './common';
import { CLUSTER_ROLE_BINDING_ROLE_REF, ROLE_BINDING_ROLE_REF } from './descriptions';
import { kindSlashName, objs, str } from './format';
import { col, tablePrinter, wide, type Printer } from './table';

/** SubjectsStrings: users, groups and "namespace/name" service accounts. */
function subjects(binding: KubeObject): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of objs(binding.subjects)) {
    if (s.kind === 'ServiceAccount') sas.push(`${str(s.namespace)}/${str(s.name)}`);
    else if (s.kind === 'User') users.push(str(s.name));
    else if (s.kind === 'Group') groups.push(str(s.name));
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

function bindingPrinter(roleRefDescription: string, what: string): Printer {
  return tablePrinter<[string, string, string]>(
    [
      NAME,
      col('Role', 'string', roleRefDescription, (r) => kindSlashName(r.object.roleRef)),
      AGE,
      wide('Users', 'string', `Users in the ${what}`, (r) => r.view[0]),
      wide('Groups', 'string', `Groups in the ${what}`, (r) => r.view[1]),
      wide('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, (r) => r.view[2]),
    ],
    { view: subjects },
  );
}

export const roleBindingPrinter = bindingPrinter(ROLE_BINDING_ROLE_REF, 'roleBinding');
export const clusterRoleBindingPrinter = bindingPrinter(CLUSTER_ROLE_BINDING_ROLE_REF, 'clusterRoleBinding');
