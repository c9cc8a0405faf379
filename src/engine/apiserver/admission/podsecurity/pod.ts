/**
 * Reading the v1 pod spec the checks look at, as JSON: absent and null fields are Go's nil
 * pointers, and the wording helpers every check shares.
 */
import { isObject, type JsonObject, type JsonValue } from '../../../api/types';
import { own } from '../../../api/own';

/** The pod's metadata and spec as the checks see them (a pod, or a workload's pod template). */
export interface PodView {
  readonly metadata: JsonObject;
  readonly spec: JsonObject;
}

export const objectAt = (o: JsonObject | undefined, key: string): JsonObject | undefined => {
  const v = own(o, key);
  return isObject(v) ? v : undefined;
};

export const listAt = (o: JsonObject | undefined, key: string): JsonObject[] => {
  const v = own(o, key);
  return Array.isArray(v) ? v.filter(isObject) : [];
};

export const stringAt = (o: JsonObject | undefined, key: string): string => {
  const v = own(o, key);
  return typeof v === 'string' ? v : '';
};

/** A *bool: true, false, or undefined for nil. */
export const boolAt = (o: JsonObject | undefined, key: string): boolean | undefined => {
  const v = own(o, key);
  return typeof v === 'boolean' ? v : undefined;
};

export const present = (o: JsonObject | undefined, key: string): boolean => {
  const v: JsonValue | undefined = own(o, key);
  return v !== undefined && v !== null;
};

/** Init containers, then containers, then ephemeral containers, as upstream visits them. */
export function containers(spec: JsonObject): JsonObject[] {
  return [...listAt(spec, 'initContainers'), ...listAt(spec, 'containers'), ...listAt(spec, 'ephemeralContainers')];
}

export const containerName = (c: JsonObject): string => stringAt(c, 'name');

export const securityContext = (c: JsonObject): JsonObject | undefined => objectAt(c, 'securityContext');

export const isWindows = (spec: JsonObject): boolean => stringAt(objectAt(spec, 'os'), 'name') === 'windows';

/** hostUsers: false puts the pod in a user namespace, which relaxes some restricted checks. */
export const inUserNamespace = (spec: JsonObject): boolean => boolAt(spec, 'hostUsers') === false;

/** `"a", "b"`, or nothing for no items. */
export const joinQuote = (items: readonly string[]): string => (items.length === 0 ? '' : `"${items.join('", "')}"`);

export const pluralize = (singular: string, plural: string, count: number): string => (count === 1 ? singular : plural);

/** sets.NewString(...).List(): distinct and sorted as Go sorts strings. */
export function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort(goCompare);
}

/** Go's string order: byte by byte (UTF-16 code units agree with UTF-8 bytes below U+D800). */
export const goCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `container "a"` / `containers "a", "b"`. */
export const containersPhrase = (names: readonly string[]): string => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
