// What every command-line tool does with its arguments: parse them, or say what is wrong
// and how to call it, and exit 1; print the usage and exit 0 when asked for it (--help, -h);
// and how it ends when something stops it.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { describeProblem } from './problems.js';

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** A command's end on an error nobody caught: one line (problems.ts), exit 1. */
export function failOn(error: unknown): never {
  fail(describeProblem(error).line);
}

/** Whether the operator asked for the usage: --help or -h before any `--`. */
const asksForHelp = (argv: string[]) => {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
};

/**
 * The command line parsed with `options` (positionals allowed); the usage on stdout and exit 0
 * when asked for; otherwise a failure naming the problem in one line, then the usage.
 */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, usage: string) {
  if (asksForHelp(argv)) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    fail(`${argumentProblem(error as Error & { code?: string })}\n${usage}`);
  }
}

/** parseArgs's reason in one line: an unknown option by its name, without the advice about `--`. */
function argumentProblem(error: Error & { code?: string }): string {
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${/'([^']+)'/.exec(error.message)?.[1] ?? error.message}`;
  return error.message;
}
