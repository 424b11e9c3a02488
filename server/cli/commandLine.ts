// What every command-line tool does with its arguments: parse them, or say what is wrong
// and how to call it, and exit 1; print the usage and exit 0 when asked for it (--help, -h);
// and how it ends when something stops it, its reader included.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { describeProblem } from './problems.js';

// A reader that stops early (`npm run demo:export | head`) closes stdout: the command then
// ends as a program killed by SIGPIPE does (exit 141, nothing more said), not with a stack.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(141);
  fail(`cannot write the output: ${error.message}`);
});

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
    failUsage(argumentProblem(error as Error & { code?: string }), usage);
  }
}

/** parseArgs's reason in one line: an unknown option by its name, without the advice about `--`. */
function argumentProblem(error: Error & { code?: string }): string {
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${/'([^']+)'/.exec(error.message)?.[1] ?? error.message}`;
  return error.message;
}

/** A failure naming what is wrong with the command line in one line, then the usage. */
export function failUsage(problem: string, usage: string): never {
  fail(`${problem}\n${usage}`);
}

/**
 * The positionals as a command (or subject) and its arguments, when the command is one of
 * `arity`'s and takes that many (at least, at most); otherwise a failure saying which.
 */
export function commandOf(positionals: string[], arity: Record<string, readonly [number, number]>, usage: string): [string, string[]] {
  const [command, ...rest] = positionals;
  const known = Object.keys(arity).join(', ');
  if (command === undefined) failUsage(`no command given (one of ${known})`, usage);
  if (!Object.hasOwn(arity, command)) failUsage(`unknown command "${command}" (one of ${known})`, usage);
  const [least, most] = arity[command]!;
  const takes = (n: number) => `${n} argument${n === 1 ? '' : 's'}`;
  if (rest.length < least) failUsage(`${command} takes ${least === most ? '' : 'at least '}${takes(least)}; got ${rest.length}`, usage);
  if (rest.length > most) failUsage(`${command} takes ${least === most ? '' : 'at most '}${takes(most)}; unexpected "${rest[most]}"`, usage);
  return [command, rest];
}

/** Input the command refuses (an unknown id, a target not allowed): one line, exit 2, nothing changed. */
export function reject(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
