import { jsonDefaulter } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultPodTemplateIn } from './pod-spec';

registerDefaulter('', 'PodTemplate', jsonDefaulter((obj) => defaultPodTemplateIn(obj, 'template')));
