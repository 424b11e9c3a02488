// What every command-line tool does with its arguments: parse them, or say what is wrong
// and how to call it, and exit 1.
import { type ParseArgsConfig, parseArgs } from 'node:util';

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** The command line parsed with `options` (positionals allowed), or a failure naming the problem and the usage. */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    fail(`${(error as Error).message}\n${usage}`);
  }
}
