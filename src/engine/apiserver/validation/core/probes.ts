/** Probes and lifecycle hooks: exactly one handler, non-negative timings, thresholds. */
import { forbidden, invalid, notSupported, required, type ErrorList, type Path } from '../../../api/field';
import { isHTTPHeaderName } from '../../../api/names';
import { validateNonnegativeField } from './numbers';
import { arr, int, num, obj, objs, str, type Obj } from './json';
import { validatePortNumOrName } from './ports';
import { own } from '../../../api/own';

/** The handler kinds, in upstream's checking order; probes have no sleep, hooks no grpc. */
const probeHandlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const lifecycleHandlers = ['exec', 'httpGet', 'tcpSocket', 'sleep'] as const;

export function validateLivenessProbe(probe: unknown, gracePeriod: number | undefined, fldPath: Path): ErrorList {
  const p = obj(probe);
  if (!p) return [];
  const errs = validateProbe(p, gracePeriod, fldPath);
  if (int(p['successThreshold']) !== 1) errs.push(invalid(fldPath.child('successThreshold'), int(p['successThreshold']), 'must be 1'));
  return errs;
}

export function validateReadinessProbe(probe: unknown, gracePeriod: number | undefined, fldPath: Path): ErrorList {
  const p = obj(probe);
  if (!p) return [];
  const errs = validateProbe(p, gracePeriod, fldPath);
  const tgps = num(p['terminationGracePeriodSeconds']);
  if (tgps !== undefined) errs.push(invalid(fldPath.child('terminationGracePeriodSeconds'), tgps, 'must not be set for readinessProbes'));
  return errs;
}

export const validateStartupProbe = validateLivenessProbe;

function validateProbe(p: Obj, gracePeriod: number | undefined, fldPath: Path): ErrorList {
  const errs = validateHandler(p, probeHandlers, gracePeriod, fldPath);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    errs.push(...validateNonnegativeField(int(p[f]), fldPath.child(f)));
  }
  const tgps = num(p['terminationGracePeriodSeconds']);
  if (tgps !== undefined && tgps <= 0) errs.push(invalid(fldPath.child('terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  return errs;
}

export function validateLifecycle(lifecycle: Obj, gracePeriod: number | undefined, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  for (const hook of ['postStart', 'preStop'] as const) {
    const h = obj(lifecycle[hook]);
    if (h) errs.push(...validateHandler(h, lifecycleHandlers, gracePeriod, fldPath.child(hook)));
  }
  return errs;
}

function validateHandler(h: Obj, kinds: readonly string[], gracePeriod: number | undefined, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  let numHandlers = 0;
  for (const kind of kinds) {
    const action = obj(own(h, kind));
    if (!action) continue;
    if (numHandlers > 0) {
      errs.push(forbidden(fldPath.child(kind), 'may not specify more than 1 handler type'));
      continue;
    }
    numHandlers++;
    errs.push(...validateAction(kind, action, gracePeriod, fldPath.child(kind)));
  }
  if (numHandlers === 0) errs.push(required(fldPath, 'must specify a handler type'));
  return errs;
}

const supportedHTTPSchemes = ['HTTP', 'HTTPS'];

function validateAction(kind: string, action: Obj, gracePeriod: number | undefined, fldPath: Path): ErrorList {
  switch (kind) {
    case 'exec':
      return arr(action['command']).length === 0 ? [required(fldPath.child('command'), '')] : [];
    case 'httpGet': {
      const errs: ErrorList = [];
      if (str(action['path']).length === 0) errs.push(required(fldPath.child('path'), ''));
      errs.push(...validatePortNumOrName(action['port'], fldPath.child('port')));
      const scheme = str(action['scheme']);
      if (!supportedHTTPSchemes.includes(scheme)) errs.push(notSupported(fldPath.child('scheme'), scheme, supportedHTTPSchemes));
      for (const header of objs(action['httpHeaders'])) {
        const name = str(header['name']);
        errs.push(...isHTTPHeaderName(name).map((m) => invalid(fldPath.child('httpHeaders'), name, m)));
      }
      return errs;
    }
    case 'tcpSocket':
      return validatePortNumOrName(action['port'], fldPath.child('port'));
    case 'grpc':
      return validatePortNumOrName(int(action['port']), fldPath.child('port'));
    default: {
      // sleep; a nil grace period was already reported by the pod spec.
      const seconds = int(action['seconds']);
      if (gracePeriod !== undefined && (seconds < 0 || seconds > gracePeriod)) {
        return [invalid(fldPath, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`)];
      }
      return [];
    }
  }
}
