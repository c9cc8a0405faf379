/** DaemonSet defaults: a rolling update one node at a time with no surge, 10 old revisions. */
import type { JsonObject } from '../../../api/types';
import { defaultNil, jsonDefaulter, structAt } from '../fields';
import { defaultRollingUpdateStrategy } from './rolling-update';
import { registerDefaulter } from '../registry';
import { defaultPodTemplateIn } from '../core/pod-spec';

export function defaultDaemonSet(daemonSet: JsonObject): void {
  const spec = structAt(daemonSet, 'spec');
  if (!spec) return;
  defaultRollingUpdateStrategy(spec, 'updateStrategy', 1, 0);
  defaultNil(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplateIn(spec, 'template');
}

registerDefaulter('apps', 'DaemonSet', jsonDefaulter(defaultDaemonSet));
