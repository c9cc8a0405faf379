/**
 * Runs the plugins of one phase in order, stopping at the first refusal, and reports each
 * plugin's verdict for the request's trace record.
 */
import type { StatusError } from '../../api/status';
import { toStatusError } from '../errors';
import type { StageResult } from '../../trace/apiserver';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from './types';

/** The two phases by the plugin method each calls: its trace stage, and the verdict of a plugin that says what it did. */
const PHASES = {
  admit: { stage: 'mutating-admission', verdict: 'mutated' },
  validate: { stage: 'validating-admission', verdict: 'passed' },
} as const;

export async function runAdmission(
  phase: keyof typeof PHASES,
  plugins: readonly AdmissionPlugin[],
  a: AdmissionAttributes,
  ctx: AdmissionContext,
  report: (r: StageResult) => void,
): Promise<void> {
  const { stage, verdict } = PHASES[phase];
  for (const p of plugins) {
    if (!p[phase] || !p.handles(a)) continue;
    try {
      const detail = await p[phase]!(a, ctx);
      report(detail ? { stage, verdict, rule: p.name, detail } : { stage, verdict: 'passed', rule: p.name });
    } catch (err) {
      throw reject(stage, p, err, report);
    }
  }
}

function reject(stage: StageResult['stage'], p: AdmissionPlugin, err: unknown, report: (r: StageResult) => void): StatusError {
  const status = toStatusError(err);
  report({ stage, verdict: 'rejected', rule: p.name, detail: status.message });
  return status;
}
