// The client as consumers get it: `npm run client:build`, then `npm pack ./client` into `dir`.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { lock } from 'proper-lockfile';

const repo = resolve(import.meta.dirname, '../..');
const exec = promisify(execFile);
/** npm without its notices, audits and funding appeals. */
export const quietNpmEnv = { ...process.env, NO_UPDATE_NOTIFIER: '1', npm_config_audit: 'false', npm_config_fund: 'false' };

/** `command args` in `cwd`, its stdout (a failure rejects with what the command printed). */
export async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = quietNpmEnv): Promise<string> {
  try {
    return (await exec(command, args, { cwd, env, maxBuffer: 16 << 20 })).stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${stdout}${stderr}`);
  }
}

/**
 * Builds and packs the client into `dir`: the tarball's path and the files it holds. The build
 * empties and rewrites client/dist, so test files running at once take turns (a lock between
 * processes) rather than pack or delete what another is writing.
 */
export async function packClient(dir: string): Promise<{ tarball: string; files: string[] }> {
  const release = await lock(join(repo, 'client'), {
    lockfilePath: join(repo, 'node_modules', '.client-build.lock'),
    retries: { retries: 1_000, minTimeout: 100, maxTimeout: 1_000 },
  });
  try {
    await run('npm', ['run', '--silent', 'client:build'], repo);
    const [packed] = JSON.parse(await run('npm', ['pack', './client', '--json', '--pack-destination', dir], repo));
    return { tarball: join(dir, packed.filename), files: packed.files.map((f: { path: string }) => f.path) };
  } finally {
    await release();
  }
}
