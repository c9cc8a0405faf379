/**
 * The cluster-level kinds with printers: priority classes, leases, endpoint slices, webhook and
 * admission policy configurations.
 */
import { ageColumn, nameColumn } from './common';
import {
  ENDPOINT_SLICE_ADDRESS_TYPE,
  ENDPOINT_SLICE_ENDPOINTS,
  ENDPOINT_SLICE_PORTS,
  LEASE_HOLDER,
  PRIORITY_CLASS_GLOBAL_DEFAULT,
  PRIORITY_CLASS_PREEMPTION_POLICY,
  PRIORITY_CLASS_VALUE,
} from './descriptions';
import { ageOf, arr, formatLabelSelector, int, listWithMore, obj, objs, str } from './format';
import { column, type Printer } from './table';


export const priorityClassPrinter: Printer = {
  columns: [
    nameColumn,
    column('Value', 'integer', PRIORITY_CLASS_VALUE),
    column('Global-Default', 'boolean', PRIORITY_CLASS_GLOBAL_DEFAULT),
    ageColumn,
    column('PreemptionPolicy', 'string', PRIORITY_CLASS_PREEMPTION_POLICY),
  ],
  cells: (pc, ctx) => [pc.metadata.name ?? '', int(pc.value), pc.globalDefault === true, ageOf(pc, ctx.now), str(pc.preemptionPolicy)],
};

export const leasePrinter: Printer = {
  columns: [nameColumn, column('Holder', 'string', LEASE_HOLDER), ageColumn],
  cells: (l, ctx) => [l.metadata.name ?? '', str(obj(l.spec).holderIdentity), ageOf(l, ctx.now)],
};

export const endpointSlicePrinter: Printer = {
  columns: [
    nameColumn,
    column('AddressType', 'string', ENDPOINT_SLICE_ADDRESS_TYPE),
    column('Ports', 'string', ENDPOINT_SLICE_PORTS),
    column('Endpoints', 'string', ENDPOINT_SLICE_ENDPOINTS),
    ageColumn,
  ],
  cells(es, ctx) {
    const ports = objs(es.ports).map((p) => (typeof p.port === 'number' ? String(int(p.port)) : typeof p.name === 'string' ? p.name : '*'));
    const addresses = objs(es.endpoints).flatMap((e) => arr(e.addresses).map(str));
    return [es.metadata.name ?? '', str(es.addressType), listWithMore(ports, 3), listWithMore(addresses, 3), ageOf(es, ctx.now)];
  },
};

const webhooksColumn = column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration');

export const webhookConfigurationPrinter: Printer = {
  columns: [nameColumn, webhooksColumn, ageColumn],
  cells: (w, ctx) => [w.metadata.name ?? '', arr(w.webhooks).length, ageOf(w, ctx.now)],
};

export const validatingAdmissionPolicyPrinter: Printer = {
  columns: [
    nameColumn,
    column('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'),
    column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
    ageColumn,
  ],
  cells(p, ctx) {
    const spec = obj(p.spec);
    const paramKind = spec.paramKind === undefined || spec.paramKind === null ? '<unset>' : `${str(obj(spec.paramKind).apiVersion)}/${str(obj(spec.paramKind).kind)}`;
    return [p.metadata.name ?? '', arr(spec.validations).length, paramKind, ageOf(p, ctx.now)];
  },
};

function paramRefName(ref: unknown): string {
  if (ref === undefined || ref === null) return '<unset>';
  const r = obj(ref);
  if (str(r.name)) return str(r.namespace) ? `${str(r.namespace)}/${str(r.name)}` : `*/${str(r.name)}`;
  return r.selector === undefined || r.selector === null ? '<unset>' : formatLabelSelector(r.selector);
}

export const validatingAdmissionPolicyBindingPrinter: Printer = {
  columns: [
    nameColumn,
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    ageColumn,
  ],
  cells(b, ctx) {
    const spec = obj(b.spec);
    return [b.metadata.name ?? '', str(spec.policyName), paramRefName(spec.paramRef), ageOf(b, ctx.now)];
  },
};

/** kube-aggregator's APIService table (pkg/registry/apiservice/etcd ConvertToTable). */
export const apiServicePrinter: Printer = {
  columns: [
    nameColumn,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    ageColumn,
  ],
  cells(a, ctx) {
    const spec = obj(a.spec);
    const service = spec.service === undefined || spec.service === null ? 'Local' : `${str(obj(spec.service).namespace)}/${str(obj(spec.service).name)}`;
    const available = arr(obj(a.status).conditions)
      .map(obj)
      .find((c) => c.type === 'Available');
    let status = 'Unknown';
    if (available) status = available.status === 'True' || !str(available.reason) ? str(available.status) : `${str(available.status)} (${str(available.reason)})`;
    return [a.metadata.name ?? '', service, status, ageOf(a, ctx.now)];
  },
};
