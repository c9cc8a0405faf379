/**
 * A live object as `kubectl get -o yaml` prints it: keys sorted, lists not indented under their
 * key, and metadata.managedFields left out (kubectl shows them only when asked), with a comment
 * saying which managers own fields.
 */
import { stringify } from 'yaml';
import type { KubeObject } from '../engine/api/types';

export function liveObjectYaml(object: KubeObject): string {
  const { managedFields, ...metadata } = object.metadata;
  const managers = [...new Set((managedFields ?? []).map((m) => `${m.manager ?? ''} (${m.operation ?? ''}${m.subresource ? ` ${m.subresource}` : ''})`))];
  const header = [
    `# Live from the simulated cluster (read-only); resourceVersion ${object.metadata.resourceVersion ?? ''}.`,
    ...(managers.length > 0 ? [`# metadata.managedFields omitted, as kubectl get -o yaml does; field managers: ${managers.join(', ')}.`] : []),
  ];
  const body = stringify({ ...object, metadata }, { sortMapEntries: true, indentSeq: false, lineWidth: 0 });
  return `${header.join('\n')}\n${body}`;
}

/** What a live document shows when the object cannot be read: kubectl's error, as a comment. */
export function liveErrorYaml(message: string): string {
  return message
    .trimEnd()
    .split('\n')
    .map((l) => `# ${l}`)
    .join('\n')
    .concat('\n');
}
