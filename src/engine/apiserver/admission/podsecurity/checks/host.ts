/**
 * Baseline checks on what a pod shares with its node: host namespaces, hostPath volumes, host
 * ports, probe and lifecycle hosts, Windows host processes.
 */
import { boolAt, containerName, containers, containersPhrase, joinQuote, listAt, objectAt, pluralize, securityContext, sortedSet, stringAt } from '../pod';
import { ALLOWED, forbidden } from '../result';
import type { JsonObject } from '../../../../api/types';
import type { Check } from './types';

export const hostNamespaces: Check = {
  id: 'hostNamespaces',
  level: 'baseline',
  versions: [
    {
      minimumVersion: 0,
      check: ({ spec }) => {
        const shared: string[] = [];
        if (boolAt(spec, 'hostNetwork') === true) shared.push('hostNetwork=true');
        if (boolAt(spec, 'hostPID') === true) shared.push('hostPID=true');
        if (boolAt(spec, 'hostIPC') === true) shared.push('hostIPC=true');
        return shared.length > 0 ? forbidden('host namespaces', shared.join(', ')) : ALLOWED;
      },
    },
  ],
};

export const HOST_PATH_VOLUMES_ID = 'hostPathVolumes';

export const hostPathVolumes: Check = {
  id: HOST_PATH_VOLUMES_ID,
  level: 'baseline',
  versions: [
    {
      minimumVersion: 0,
      check: ({ spec }) => {
        const names = listAt(spec, 'volumes')
          .filter((v) => objectAt(v, 'hostPath') !== undefined)
          .map((v) => stringAt(v, 'name'));
        return names.length > 0 ? forbidden('hostPath volumes', `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}`) : ALLOWED;
      },
    },
  ],
};

export const hostPorts: Check = {
  id: 'hostPorts',
  level: 'baseline',
  versions: [
    {
      minimumVersion: 0,
      check: ({ spec }) => {
        const bad: string[] = [];
        const ports: string[] = [];
        for (const c of containers(spec)) {
          let valid = true;
          for (const p of listAt(c, 'ports')) {
            const hostPort = p.hostPort;
            if (typeof hostPort === 'number' && hostPort !== 0) {
              valid = false;
              ports.push(String(Math.trunc(hostPort)));
            }
          }
          if (!valid) bad.push(containerName(c));
        }
        if (bad.length === 0) return ALLOWED;
        const distinct = sortedSet(ports);
        return forbidden(
          'hostPort',
          `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', distinct.length)} ${distinct.join(', ')}`,
        );
      },
    },
  ],
};

/** The hosts a probe or lifecycle handler names, in httpGet then tcpSocket order. */
function handlerHosts(handler: JsonObject | undefined): string[] {
  if (!handler) return [];
  const hosts: string[] = [];
  const http = stringAt(objectAt(handler, 'httpGet'), 'host');
  if (http) hosts.push(http);
  const tcp = stringAt(objectAt(handler, 'tcpSocket'), 'host');
  if (tcp) hosts.push(tcp);
  return hosts;
}

export const hostProbesAndHostLifecycle: Check = {
  id: 'hostProbesAndHostLifecycle',
  level: 'baseline',
  versions: [
    {
      minimumVersion: 34,
      check: ({ spec }) => {
        const bad = new Set<string>();
        const hosts = new Set<string>();
        for (const c of containers(spec)) {
          const lifecycle = objectAt(c, 'lifecycle');
          const handlers = [objectAt(c, 'livenessProbe'), objectAt(c, 'readinessProbe'), objectAt(c, 'startupProbe'), objectAt(lifecycle, 'postStart'), objectAt(lifecycle, 'preStop')];
          for (const h of handlers) {
            const found = handlerHosts(h);
            if (found.length === 0) continue;
            bad.add(containerName(c));
            for (const x of found) hosts.add(x);
          }
        }
        if (bad.size === 0) return ALLOWED;
        const names = sortedSet(bad);
        const forbiddenHosts = sortedSet(hosts);
        return forbidden(
          'probe or lifecycle host',
          `${containersPhrase(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', forbiddenHosts.length)} ${joinQuote(forbiddenHosts)}`,
        );
      },
    },
  ],
};

const hostProcess = (sc: JsonObject | undefined): boolean => boolAt(objectAt(sc, 'windowsOptions'), 'hostProcess') === true;

export const windowsHostProcess: Check = {
  id: 'windowsHostProcess',
  level: 'baseline',
  versions: [
    {
      minimumVersion: 0,
      check: ({ spec }) => {
        const bad = containers(spec).filter((c) => hostProcess(securityContext(c))).map(containerName);
        const setters: string[] = [];
        if (hostProcess(objectAt(spec, 'securityContext'))) setters.push('pod');
        if (bad.length > 0) setters.push(containersPhrase(bad));
        return setters.length > 0 ? forbidden('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`) : ALLOWED;
      },
    },
  ],
};
