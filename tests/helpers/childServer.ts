// The service as operators run it, in a process of its own (support/serviceProcess.ts):
// `server/main.ts`, or the built server (`node dist/server/main.js`), its JSON log lines
// read from stdout. Each process spools its access audit in a directory of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FROM_SOURCE, type ServiceProcess, startServiceProcess } from '../../support/serviceProcess.js';

export { FROM_SOURCE };

export interface ChildServer extends Pick<ServiceProcess, 'process' | 'url' | 'logs' | 'output' | 'waitForLog' | 'exited'> {
  /** Kills the process if it still runs (afterAll). */
  stop(): Promise<void>;
}

/**
 * `shell`: commands run before node replaces the shell (exec), such as `ulimit -f 64`.
 * Unless `env` names one, the process spools its access audit in a directory of its own,
 * removed when it has exited.
 */
export async function startChildServer(
  env: Record<string, string>,
  startTimeoutMs = 90_000,
  nodeArgs: string[] = FROM_SOURCE,
  shell?: string,
): Promise<ChildServer> {
  const ownSpoolDir = env.AUDIT_SPOOL_DIR === undefined ? mkdtempSync(join(tmpdir(), 'audit-spool-child-')) : undefined;
  const removeSpool = () => ownSpoolDir && rmSync(ownSpoolDir, { recursive: true, force: true });
  try {
    const child = await startServiceProcess({ env: { ...(ownSpoolDir && { AUDIT_SPOOL_DIR: ownSpoolDir }), ...env }, nodeArgs, shell, startTimeoutMs });
    const exited = child.exited.then((how) => (removeSpool(), how));
    return {
      ...child,
      exited,
      stop: async () => {
        await child.kill();
        await exited;
      },
    };
  } catch (error) {
    removeSpool();
    throw error;
  }
}
