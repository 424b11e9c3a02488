// The one line a command or the service prints when it cannot do its work for a reason
// the operator can act on: a configuration error (ConfigError) or a database that cannot
// be opened (DatabaseProblem). Shared, so the service at start and every command say it
// in the same words. Anything else is a fault of the program: its message, and a stack
// only where LOG_LEVEL asks for debugging.
import { ConfigError } from '../config.js';
import { DatabaseProblem } from '../db/engines/databaseProblem.js';

/** The line for `error`, and whether it is the operator's to fix (exit 1, no stack). */
export function describeProblem(error: unknown): { line: string; known: boolean } {
  if (error instanceof ConfigError) return { line: `configuration error: ${error.message}`, known: true };
  if (error instanceof DatabaseProblem) return { line: `database error: ${error.message}`, known: true };
  return { line: error instanceof Error ? error.message : String(error), known: false };
}
