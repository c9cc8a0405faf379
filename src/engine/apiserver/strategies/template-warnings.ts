/**
 * The warnings of the pod-carrying kinds' strategies: a pod's (pkg/registry/core/pod
 * WarningsOnCreate/Update) and those of the workload kinds, whose strategies warn about their
 * pod template (GetWarningsForPodTemplate) at the template's path.
 */
import { Path } from '../../api/field';
import { isDNS1123Label } from '../../api/names';
import { own } from '../../api/own';
import { isObject, type JsonObject, type JsonValue, type KubeObject } from '../../api/types';
import { podSpecWarnings, podTemplateWarnings } from './pod-warnings';
import type { Strategy } from './types';
import { POD_TEMPLATE_PATHS } from '../pod-templates';

const at = (o: KubeObject, path: readonly string[]): JsonValue | undefined =>
  path.reduce<JsonValue | undefined>((cur, k) => (isObject(cur) ? own(cur, k) : undefined), o as JsonObject);

/** The pod strategy's warnings: a name that is no DNS label, then the pod's own. */
export function podWarnings(pod: KubeObject, creating: boolean): string[] {
  const out: string[] = [];
  if (creating) {
    const msgs = isDNS1123Label(pod.metadata.name ?? '');
    // %v of a []string: its items, space-separated, in brackets.
    if (msgs.length > 0) out.push(`metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`);
  }
  out.push(...podSpecWarnings(undefined, isObject(pod.spec) ? pod.spec : {}, pod.metadata));
  return out;
}

/** Adds the pod or pod template warnings to a resource's strategy, when it carries one. */
export function withPodWarnings(id: string, strategy: Strategy): Strategy {
  if (id === '/pods') return { ...strategy, warningsOnCreate: (o) => podWarnings(o, true), warningsOnUpdate: (o) => podWarnings(o, false) };
  const path = own(POD_TEMPLATE_PATHS, id);
  if (!path) return strategy;
  const warn = (o: KubeObject): string[] => podTemplateWarnings(Path.root(path[0]!, ...path.slice(1)), at(o, path));
  return { ...strategy, warningsOnCreate: warn, warningsOnUpdate: warn };
}
