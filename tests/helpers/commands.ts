// The operator commands (server/cli/) run as processes, on the environment a test gives
// them: node with tsx's loader, as `npm run <command>` runs them, without tsx's own
// wrapper process in between (which would double the process starts of every call).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `script`: the file's name under server/cli/, without `.ts`. A failing exit resolves too: `code` says. */
export function runCommand(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return runSource(`server/cli/${script}.ts`, args, env);
}

/** The service's entry point (server/main.ts) run to its exit: a start that is refused, and what it says. */
export function runServiceToExit(env: NodeJS.ProcessEnv, timeoutMs = 90_000, args: string[] = []): Promise<CommandResult> {
  return runSource('server/main.ts', args, { PORT: '0', ...env }, timeoutMs);
}

function runSource(file: string, args: string[], env: NodeJS.ProcessEnv, timeout?: number): Promise<CommandResult> {
  return run(process.execPath, ['--import', 'tsx', file, ...args], { env, timeout, killSignal: 'SIGKILL' }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error) => ({ code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string }),
  );
}
