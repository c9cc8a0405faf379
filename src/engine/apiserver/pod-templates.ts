/**
 * Where each workload resource keeps the pod template it makes pods from, as a path of fields
 * from the object, keyed `group/resource` (the core group empty). Pod security admission reads
 * the template there, and the workload strategies warn about it at that path.
 */
import { table } from '../api/own';

export const POD_TEMPLATE_PATHS = table<readonly string[]>({
  '/podtemplates': ['template'],
  '/replicationcontrollers': ['spec', 'template'],
  'apps/deployments': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
});
