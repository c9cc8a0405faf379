/** DaemonSet defaults: a rolling update one node at a time with no surge, 10 old revisions. */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil, jsonDefaulter, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultPodTemplateIn } from '../core/pod-spec';

export function defaultDaemonSet(daemonSet: JsonObject): void {
  const spec = structAt(daemonSet, 'spec');
  if (!spec) return;
  const strategy = structAt(spec, 'updateStrategy');
  if (strategy) {
    defaultEmptyString(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      const rollingUpdate = structAt(strategy, 'rollingUpdate');
      if (rollingUpdate) {
        defaultNil(rollingUpdate, 'maxUnavailable', 1);
        defaultNil(rollingUpdate, 'maxSurge', 0);
      }
    }
  }
  defaultNil(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplateIn(spec, 'template');
}

registerDefaulter('apps', 'DaemonSet', jsonDefaulter(defaultDaemonSet));
