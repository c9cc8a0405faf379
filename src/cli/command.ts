/** What the CLI's commands (apply, serve, validate) share as they start: their streams and their command line. */

/** Where a command writes: the process's streams, or a test's buffers. */
export interface Output {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * --help or -h prints the usage (exit 0); otherwise the command's own parser reads the flags, and
 * its error is printed with the usage (exit 2). Returns the flags, or the exit code.
 */
export function parseCommandLine<T extends object>(argv: string[], usage: string, parse: (argv: string[]) => T | string, io: Output): T | number {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(usage);
    return 0;
  }
  const args = parse(argv);
  if (typeof args === 'string') {
    io.stderr.write(`${args}\n\n${usage}`);
    return 2;
  }
  return args;
}

/** An argument as a flag and its inline value ("--seed=x": "--seed" and "x"; else the argument and undefined). */
export function splitFlag(arg: string): { flag: string; inline: string | undefined } {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? { flag: arg.slice(0, eq), inline: arg.slice(eq + 1) } : { flag: arg, inline: undefined };
}
