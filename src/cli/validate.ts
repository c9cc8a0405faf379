/**
 * `kubesim validate [--strict] [--output text|json] <files or folders...>`: every document of the
 * given manifests goes through the API server's full pipeline, as the cluster admin, against a
 * fresh in-memory cluster that holds the documents given before it (each valid one is stored,
 * so a Namespace or ResourceQuota earlier in the set counts). Errors read as kubectl
 * prints them; `--output json` gives one entry per document with the line and column of each
 * offending node. Exit codes: 0 all valid, 1 any invalid, 2 usage errors.
 */
import { readFileSync } from 'node:fs';
import { Validator, createValidationCluster, type DocumentReport } from '../engine/validator/validator';
import { parseCommandLine } from './command';
import { manifestFiles } from './files';

const USAGE = `Validate Kubernetes manifests against the Kubernetes 1.35 API server's rules.

Usage:
  kubesim validate [--strict] [--output text|json] <files or folders...>

Options:
  --strict           refuse unknown and duplicate fields (fieldValidation=Strict), as kubectl does
  -o, --output       text (default) or json
`;

interface Args {
  strict: boolean;
  output: 'text' | 'json';
  paths: string[];
}

function parseArgs(argv: string[]): Args | string {
  const args: Args = { strict: false, output: 'text', paths: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--strict') args.strict = true;
    else if (a === '--output' || a === '-o') {
      const v = argv[++i];
      if (v !== 'text' && v !== 'json') return `error: --output must be text or json, got ${JSON.stringify(v ?? '')}`;
      args.output = v;
    } else if (a.startsWith('--output=') || a.startsWith('-o=')) {
      const v = a.slice(a.indexOf('=') + 1);
      if (v !== 'text' && v !== 'json') return `error: --output must be text or json, got ${JSON.stringify(v)}`;
      args.output = v;
    } else if (a.startsWith('-') && a !== '-') return `error: unknown flag: ${a}`;
    else args.paths.push(a);
  }
  if (args.paths.length === 0) return 'error: no files or folders given';
  return args;
}

function textReport(reports: DocumentReport[]): string {
  let out = '';
  for (const r of reports) {
    for (const w of r.warnings) out += `${r.file}:${w.line}:${w.column}: Warning: ${w.message}\n`;
    if (r.valid) continue;
    const lines = (r.kubectl ?? '').replace(/\n$/, '').split('\n');
    const bullets = r.errors.length > 1 && lines[0]!.endsWith(': ') && lines.length === r.errors.length + 1;
    lines.forEach((line, i) => {
      const at = bullets && i > 0 ? r.errors[i - 1]! : i === 0 && r.errors.length === 1 ? r.errors[0]! : { line: r.line, column: 1 };
      out += `${r.file}:${at.line}:${at.column}: ${line}\n`;
    });
  }
  const invalid = reports.filter((r) => !r.valid).length;
  out += `${reports.length} ${reports.length === 1 ? 'document' : 'documents'}, ${invalid} invalid\n`;
  return out;
}

export async function runValidate(argv: string[]): Promise<number> {
  const args = parseCommandLine(argv, USAGE, parseArgs, process);
  if (typeof args === 'number') return args;
  const files = manifestFiles(args.paths, { recursive: true });
  if (typeof files === 'string') {
    process.stderr.write(`${files}\n`);
    return 2;
  }
  const validator = new Validator(await createValidationCluster(), args.strict);
  const reports: DocumentReport[] = [];
  for (const file of files) reports.push(...(await validator.validateFile(file, readFileSync(file, 'utf8'))));
  await validator.server.close();
  if (args.output === 'json') {
    process.stdout.write(JSON.stringify(reports.map(({ kubectl: _k, ...r }) => r), null, 2) + '\n');
  } else {
    process.stdout.write(textReport(reports));
  }
  return reports.every((r) => r.valid) ? 0 : 1;
}
