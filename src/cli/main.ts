/**
 * kubesim CLI: the engine without an editor.
 *   kubesim validate [--strict] [--output text|json] <files or folders...>
 *   kubesim apply -f <file|folder> [-f ...] [--nodes N] [--seed S] [--until settled|<duration>] [--output timeline|json] [--etcd-endpoints URL,...]
 *   kubesim serve [--port P] [--nodes N] [--kubeconfig PATH] [-f manifests...] [--no-metrics-server] [--etcd-endpoints URL,...]
 * Exit codes: 0 success, 1 the cluster said no (invalid, forbidden, ...), 2 usage errors.
 */
import { own } from '../engine/api/own';


type Command = (argv: string[]) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  // Each subcommand adds itself here: name -> async () => (await import('./<name>')).run<Name>
  validate: async () => (await import('./validate')).runValidate,
  apply: async () => (await import('./apply')).runApply,
  serve: async () => (await import('./serve')).runServe,
};

const USAGE = `usage: kubesim <command> [options]

Commands:
${Object.keys(commands)
  .map((c) => `  ${c}`)
  .join('\n')}

Run 'kubesim <command> --help' for a command's options.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE + '\n');
    return name ? 0 : 2;
  }
  const load = own(commands, name);
  if (!load) {
    process.stderr.write(`error: unknown command "${name}" for "kubesim"\n${USAGE}\n`);
    return 2;
  }
  return (await load())(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
