// What every command-line tool does with its arguments: parse them, or say what is wrong
// and how to call it, and exit 1; and how it ends when something stops it.
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

/** The command line parsed with `options` (positionals allowed), or a failure naming the problem and the usage. */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    fail(`${(error as Error).message}\n${usage}`);
  }
}
