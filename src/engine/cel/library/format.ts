/** Kubernetes' format library (k8s.io/apiserver/pkg/cel/library/format.go). */
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { isQualifiedName, isValidLabelValue, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from '../../api/names';
import { registerNamespace } from './namespaces';
import { table } from '../../api/own';

export class CelFormat {
  constructor(
    readonly name: string,
    readonly validate: (s: string) => string[],
  ) {}
}

const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const FORMATS = table<CelFormat>({
  dns1123Label: new CelFormat('DNS1123Label', (s) => nameIsDNSLabel(s, false)),
  dns1123Subdomain: new CelFormat('DNS1123Subdomain', (s) => nameIsDNSSubdomain(s, false)),
  dns1035Label: new CelFormat('DNS1035Label', (s) => nameIsDNS1035Label(s, false)),
  qualifiedName: new CelFormat('QualifiedName', isQualifiedName),
  dns1123LabelPrefix: new CelFormat('DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true)),
  dns1123SubdomainPrefix: new CelFormat('DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true)),
  dns1035LabelPrefix: new CelFormat('DNS1035LabelPrefix', (s) => nameIsDNS1035Label(s, true)),
  labelValue: new CelFormat('LabelValue', isValidLabelValue),
  uri: new CelFormat('URI', (s) => (/^([a-zA-Z][a-zA-Z0-9+.-]*:|\/)/.test(s) ? [] : [`parse "${s}": invalid URI for request`])),
  uuid: new CelFormat('uuid', (s) => (UUID.test(s) ? [] : ['does not match the UUID format'])),
  byte: new CelFormat('byte', (s) => (/^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0 ? [] : ['invalid base64'])),
  date: new CelFormat('date', (s) => (DATE.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid date'])),
  datetime: new CelFormat('datetime', (s) => (DATETIME.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid datetime'])),
});

export function registerFormat(env: Environment): void {
  registerNamespace(env, 'format', 'FormatNamespace');
  env.registerType('kubernetes.NamedFormat', CelFormat);
  for (const [fn, f] of Object.entries(FORMATS)) env.registerFunction(`FormatNamespace.${fn}(): kubernetes.NamedFormat`, () => f);
  env
    .registerFunction('FormatNamespace.named(string): optional<kubernetes.NamedFormat>', (_ns: unknown, name: string) => (FORMATS[name] ? Optional.of(FORMATS[name]) : Optional.none()))
    .registerFunction('kubernetes.NamedFormat.validate(string): optional<list<string>>', (f: CelFormat, s: string) => {
      const errs = f.validate(s);
      return errs.length === 0 ? Optional.none() : Optional.of(errs);
    });
}
