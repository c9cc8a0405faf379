import { defaultNil, jsonDefaulter } from '../fields';
import { registerDefaulter } from '../registry';

registerDefaulter(
  'scheduling.k8s.io',
  'PriorityClass',
  jsonDefaulter((priorityClass) => defaultNil(priorityClass, 'preemptionPolicy', 'PreemptLowerPriority')),
);
