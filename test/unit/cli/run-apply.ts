/** `kubesim apply` run in-process with its stdout and stderr captured (the CLI tests' one runner). */
import { runApply } from '../../../src/cli/apply';

export interface ApplyRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runApplyCaptured(argv: string[]): Promise<ApplyRun> {
  let stdout = '';
  let stderr = '';
  const code = await runApply(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}
