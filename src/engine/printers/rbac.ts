/** kubectl get rolebindings and clusterrolebindings (roles print with the default columns). */
import type { KubeObject } from '../api/types';
import { ageColumn, nameColumn } from './common';
import { CLUSTER_ROLE_BINDING_ROLE_REF, ROLE_BINDING_ROLE_REF } from './descriptions';
import { ageOf, obj, objs, str } from './format';
import { column, type Printer } from './table';

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
  return {
    columns: [
      nameColumn,
      column('Role', 'string', roleRefDescription),
      ageColumn,
      column('Users', 'string', `Users in the ${what}`, { priority: 1 }),
      column('Groups', 'string', `Groups in the ${what}`, { priority: 1 }),
      column('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, { priority: 1 }),
    ],
    cells(b, ctx) {
      const ref = obj(b.roleRef);
      return [b.metadata.name ?? '', `${str(ref.kind)}/${str(ref.name)}`, ageOf(b, ctx.now), ...subjects(b)];
    },
  };
}

export const roleBindingPrinter = bindingPrinter(ROLE_BINDING_ROLE_REF, 'roleBinding');
export const clusterRoleBindingPrinter = bindingPrinter(CLUSTER_ROLE_BINDING_ROLE_REF, 'clusterRoleBinding');
