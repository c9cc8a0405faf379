/**
 * APIService rules (k8s.io/kube-aggregator pkg/apis/apiregistration/validation): the name is
 * `<version>.<group>`, only v1 may leave the group empty, priorities within their ranges, and a
 * local APIService (no service) carries neither a CA bundle nor insecureSkipTLSVerify.
 */
import { invalid, notSupported, Path, required, type ErrorList } from '../../../api/field';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName, isValidPortNum } from '../../../api/names';
import { isObject, type JsonObject, type KubeObject } from '../../../api/types';
import { int as num, str } from '../core/json';
import { validateObjectMeta, validateObjectMetaUpdate } from '../meta';
import { registerValidator } from '../registry';


function validateAPIService(o: KubeObject): ErrorList {
  const spec: JsonObject = isObject(o.spec) ? o.spec : {};
  const group = str(spec.group);
  const version = str(spec.version);
  const requiredName = `${version}.${group}`;
  const errs = validateObjectMeta(
    o.metadata,
    false,
    (name) => {
      const minimal = isValidPathSegmentName(name);
      if (minimal.length > 0) return minimal;
      return name === requiredName ? [] : [`must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`];
    },
    Path.root('metadata'),
  );
  if (group === '' && version !== 'v1') errs.push(required(Path.root('spec', 'group'), 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const e of isDNS1123Subdomain(group)) errs.push(invalid(Path.root('spec', 'group'), group, e));
  for (const e of isDNS1035Label(version)) errs.push(invalid(Path.root('spec', 'version'), version, e));
  const groupPriority = num(spec.groupPriorityMinimum);
  if (groupPriority <= 0 || groupPriority > 20000) errs.push(invalid(Path.root('spec', 'groupPriorityMinimum'), groupPriority, 'must be positive and less than 20000'));
  const versionPriority = num(spec.versionPriority);
  if (versionPriority <= 0 || versionPriority > 1000) errs.push(invalid(Path.root('spec', 'versionPriority'), versionPriority, 'must be positive and less than 1000'));
  const caBundle = str(spec.caBundle);
  // The bundle is []byte: its length is that of the decoded base64.
  const caBytes = caBundle === '' ? 0 : Buffer.from(caBundle, 'base64').length;
  const insecure = spec.insecureSkipTLSVerify === true;
  const service = isObject(spec.service) ? spec.service : undefined;
  if (!service) {
    if (caBytes !== 0) errs.push(invalid(Path.root('spec', 'caBundle'), `${caBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (insecure) errs.push(invalid(Path.root('spec', 'insecureSkipTLSVerify'), insecure, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  if (str(service.namespace) === '') errs.push(required(Path.root('spec', 'service', 'namespace'), ''));
  if (str(service.name) === '') errs.push(required(Path.root('spec', 'service', 'name'), ''));
  const port = num(service.port);
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid(Path.root('spec', 'service', 'port'), port, `port is not valid: ${portErrs.join(', ')}`));
  if (insecure && caBytes > 0) errs.push(invalid(Path.root('spec', 'insecureSkipTLSVerify'), insecure, 'may not be true if caBundle is present'));
  return errs;
}

function validateAPIServiceStatus(o: KubeObject): ErrorList {
  const errs: ErrorList = [];
  const status = isObject(o.status) ? o.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  conditions.forEach((c, i) => {
    const s = isObject(c) ? c.status : undefined;
    if (s !== 'True' && s !== 'False' && s !== 'Unknown') errs.push(notSupported(Path.root('status', 'conditions').index(i).child('status'), s, ['True', 'False', 'Unknown']));
  });
  return errs;
}

registerValidator('apiregistration.k8s.io', 'APIService', {
  create: (o) => validateAPIService(o),
  update: (o, old) => [...validateObjectMetaUpdate(o.metadata, old.metadata, Path.root('metadata')), ...validateAPIService(o)],
  updateStatus: (o, old) => [...validateObjectMetaUpdate(o.metadata, old.metadata, Path.root('metadata')), ...validateAPIServiceStatus(o)],
});
