import { isObject } from '../../../api/types';
import { defaultNil, jsonDefaulter } from '../fields';
import { registerDefaulter } from '../registry';

// SetDefaults_ServiceReference (kube-aggregator apiregistration/v1): the service port is 443.
registerDefaulter(
  'apiregistration.k8s.io',
  'APIService',
  jsonDefaulter((apiService) => {
    const spec = apiService.spec;
    if (isObject(spec) && isObject(spec.service)) defaultNil(spec.service, 'port', 443);
  }),
);
