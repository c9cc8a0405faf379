import type { ErrorList } from '../../../../src/engine/api/field';
import type { KubeObject } from '../../../../src/engine/api/types';
import { defaulterFor } from '../../../../src/engine/apiserver/defaults';
import '../../../../src/engine/apiserver/validation/core';
import { validatorFor } from '../../../../src/engine/apiserver/validation/registry';

/** Defaults a copy of the object, as the API server does, then runs the core kind's rules. */
export function validate(obj: object, old?: object, status = false): string[] {
  const o = structuredClone(obj) as KubeObject;
  const d = defaulterFor('', o.kind);
  d?.(o);
  const v = validatorFor('', o.kind);
  if (!v) throw new Error(`no validator for ${o.kind}`);
  let errs: ErrorList;
  if (!old) errs = v.create(o, {});
  else {
    const p = structuredClone(old) as KubeObject;
    d?.(p);
    errs = status && v.updateStatus ? v.updateStatus(o, p, {}) : v.update(o, p, {});
  }
  return errs.map((e) => e.message);
}

export function pod(spec: object = {}, metadata: object = {}): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', resourceVersion: '1', ...metadata },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
  };
}
