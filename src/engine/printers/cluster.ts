/**
 * The cluster-level kinds with printers: priority classes, leases, endpoint slices, webhook and
 * admission policy configurations.
 */
import type { JsonObject } from '../api/types';
import { AGE, NAME } from './common';
import {
  ENDPOINT_SLICE_ADDRESS_TYPE,
  ENDPOINT_SLICE_ENDPOINTS,
  ENDPOINT_SLICE_PORTS,
  LEASE_HOLDER,
  PRIORITY_CLASS_GLOBAL_DEFAULT,
  PRIORITY_CLASS_PREEMPTION_POLICY,
  PRIORITY_CLASS_VALUE,
} from './descriptions';
import { arr, findCondition, formatLabelSelector, int, listWithMore, obj, objs, str } from './format';
import { col, tablePrinter } from './table';
export const priorityClassPrinter = tablePrinter([
  NAME,
  col('Value', 'integer', PRIORITY_CLASS_VALUE, (r) => int(r.object.value)),
  col('Global-Default', 'boolean', PRIORITY_CLASS_GLOBAL_DEFAULT, (r) => r.object.globalDefault === true),
  AGE,
  col('PreemptionPolicy', 'string', PRIORITY_CLASS_PREEMPTION_POLICY, (r) => str(r.object.preemptionPolicy)),
]);

export const leasePrinter = tablePrinter([NAME, col('Holder', 'string', LEASE_HOLDER, (r) => str(r.spec.holderIdentity)), AGE]);

/** A port's number, else its name, else "*" (all ports). */
const endpointPort = (p: JsonObject): string => (typeof p.port === 'number' ? String(int(p.port)) : typeof p.name === 'string' ? p.name : '*');

export const endpointSlicePrinter = tablePrinter([
  NAME,
  col('AddressType', 'string', ENDPOINT_SLICE_ADDRESS_TYPE, (r) => str(r.object.addressType)),
  col('Ports', 'string', ENDPOINT_SLICE_PORTS, (r) => listWithMore(objs(r.object.ports).map(endpointPort), 3)),
  col('Endpoints', 'string', ENDPOINT_SLICE_ENDPOINTS, (r) => listWithMore(objs(r.object.endpoints).flatMap((e) => arr(e.addresses).map(str)), 3)),
  AGE,
]);

export const webhookConfigurationPrinter = tablePrinter([
  NAME,
  col('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration', (r) => arr(r.object.webhooks).length),
  AGE,
]);

/** The policy's paramKind as "apiVersion/kind", "<unset>" without one. */
function paramKind(kind: unknown): string {
  if (kind === undefined || kind === null) return '<unset>';
  return `${str(obj(kind).apiVersion)}/${str(obj(kind).kind)}`;
}

export const validatingAdmissionPolicyPrinter = tablePrinter([
  NAME,
  col('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration', (r) => arr(r.spec.validations).length),
  col('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy', (r) => paramKind(r.spec.paramKind)),
  AGE,
]);

function paramRefName(ref: unknown): string {
  if (ref === undefined || ref === null) return '<unset>';
  const r = obj(ref);
  if (str(r.name)) return str(r.namespace) ? `${str(r.namespace)}/${str(r.name)}` : `*/${str(r.name)}`;
  return r.selector === undefined || r.selector === null ? '<unset>' : formatLabelSelector(r.selector);
}

export const validatingAdmissionPolicyBindingPrinter = tablePrinter([
  NAME,
  col('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to', (r) => str(r.spec.policyName)),
  col('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param', (r) => paramRefName(r.spec.paramRef)),
  AGE,
]);

/** The Available condition's status, with its reason when it is not True. */
function apiServiceAvailable(conditions: unknown): string {
  const available = findCondition(conditions, 'Available');
  if (!available) return 'Unknown';
  return available.status === 'True' || !str(available.reason) ? str(available.status) : `${str(available.status)} (${str(available.reason)})`;
}

/** kube-aggregator's APIService table (pkg/registry/apiservice/etcd ConvertToTable). */
export const apiServicePrinter = tablePrinter([
  NAME,
  col('Service', 'string', 'The reference to the service that hosts this API endpoint.', (r) =>
    r.spec.service === undefined || r.spec.service === null ? 'Local' : `${str(obj(r.spec.service).namespace)}/${str(obj(r.spec.service).name)}`,
  ),
  col('Available', 'string', 'Whether this service is available.', (r) => apiServiceAvailable(r.status.conditions)),
  AGE,
]);
