/**
 * The naming controller's decision (apiextensions-apiserver pkg/controller/status): each requested
 * name is accepted if it already is, or if no other CRD of the group has accepted it; the kind
 * and list kind likewise among kinds. A conflict keeps the old accepted name and makes
 * NamesAccepted False with the conflict's reason.
 */
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import { semanticEqual } from '../validation/meta';
import { findCondition, type CrdCondition } from './conditions';
import { own, setOwn } from '../../api/own';

export interface NamingResult {
  names: JsonObject;
  namesAccepted: CrdCondition;
  established: CrdCondition;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const namesOf = (o: KubeObject, field: 'spec' | 'status', key: string): JsonObject => {
  const part = isObject(o[field]) ? (o[field] as JsonObject) : {};
  const v = own(part, key);
  return isObject(v) ? v : {};
};

/** The names the group's other CRDs have accepted. */
function usedNames(others: readonly KubeObject[]): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const o of others) {
    const accepted = namesOf(o, 'status', 'acceptedNames');
    for (const n of [str(accepted.plural), str(accepted.singular), ...strs(accepted.shortNames)]) resources.add(n);
    kinds.add(str(accepted.kind));
    kinds.add(str(accepted.listKind));
  }
  return { resources, kinds };
}

/** equalToAcceptedOrFresh: the error message, or undefined when the name may be accepted. */
function conflict(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `"${requested}" is already in use`;
}

/** The new accepted names and conditions, or undefined when the requested names are the accepted ones. */
export function acceptedNames(crd: KubeObject, others: readonly KubeObject[]): NamingResult | undefined {
  const requested = namesOf(crd, 'spec', 'names');
  const accepted = namesOf(crd, 'status', 'acceptedNames');
  if (semanticEqual(requested, accepted)) return undefined;
  const { resources, kinds } = usedNames(others);
  const names: JsonObject = { ...accepted };
  let failure: { reason: string; message: string } | undefined;
  const take = (field: string, used: Set<string>, reason: string): void => {
    const message = conflict(str(own(requested, field)), str(own(accepted, field)), used);
    if (message) failure = { reason, message };
    else if (own(requested, field) !== undefined) setOwn(names, field, own(requested, field));
  };
  take('plural', resources, 'PluralConflict');
  take('singular', resources, 'SingularConflict');
  if (!semanticEqual(requested.shortNames, accepted.shortNames)) {
    const existing = new Set(strs(accepted.shortNames));
    const errors = strs(requested.shortNames).filter((n) => !existing.has(n)).map((n) => conflict(n, '', resources)).filter((m): m is string => !!m);
    if (errors.length > 0) failure = { reason: 'ShortNamesConflict', message: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
    else if (requested.shortNames !== undefined) names.shortNames = requested.shortNames;
    else delete names.shortNames;
  }
  take('kind', kinds, 'KindConflict');
  take('listKind', kinds, 'ListKindConflict');
  if (requested.categories !== undefined) names.categories = requested.categories;
  else delete names.categories;

  const namesAccepted: CrdCondition = failure
    ? { type: 'NamesAccepted', status: 'False', ...failure }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  const old = findCondition(crd, 'Established');
  let established: CrdCondition = old
    ? { type: 'Established', status: old.status as CrdCondition['status'], reason: str(old.reason), message: str(old.message) }
    : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { names, namesAccepted, established };
}
