/**
 * Runs the plugins of one phase in order, stopping at the first refusal, and reports each
 * plugin's verdict for the request's trace record.
 */
import type { StatusError } from '../../api/status';
import { toStatusError } from '../errors';
import type { StageResult } from '../../trace/apiserver';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from './types';

export async function runMutating(
  plugins: readonly AdmissionPlugin[],
  a: AdmissionAttributes,
  ctx: AdmissionContext,
  report: (r: StageResult) => void,
): Promise<void> {
  for (const p of plugins) {
    if (!p.admit || !p.handles(a)) continue;
    try {
      const changed = await p.admit(a, ctx);
      report(changed ? { stage: 'mutating-admission', verdict: 'mutated', rule: p.name, detail: changed } : { stage: 'mutating-admission', verdict: 'passed', rule: p.name });
    } catch (err) {
      throw reject('mutating-admission', p, err, report);
    }
  }
}

export async function runValidating(
  plugins: readonly AdmissionPlugin[],
  a: AdmissionAttributes,
  ctx: AdmissionContext,
  report: (r: StageResult) => void,
): Promise<void> {
  for (const p of plugins) {
    if (!p.validate || !p.handles(a)) continue;
    try {
      const detail = await p.validate(a, ctx);
      report(detail ? { stage: 'validating-admission', verdict: 'passed', rule: p.name, detail } : { stage: 'validating-admission', verdict: 'passed', rule: p.name });
    } catch (err) {
      throw reject('validating-admission', p, err, report);
    }
  }
}

function reject(stage: StageResult['stage'], p: AdmissionPlugin, err: unknown, report: (r: StageResult) => void): StatusError {
  const status = toStatusError(err);
  report({ stage, verdict: 'rejected', rule: p.name, detail: status.message });
  return status;
}
