// `npm start` and `npm run mock` under a process manager: SIGTERM sent to npm (not to the
// process group) stops the server gracefully, with nothing of the group left running and
// the port free. (npm passes the signal to the script's shell; without `exec` in the
// script, the shell dies and the server runs on, orphaned.) `npm run start:prod` is
// checked the same way in tests/build/build.slow.test.ts, where a build exists.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, type NpmScriptRun, portFree, runNpmScript } from '../helpers/npmScripts.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('long-running npm scripts stop on a SIGTERM sent to npm', () => {
  let run: NpmScriptRun | undefined;
  afterEach(() => run?.kill());

  it('npm start: the server finishes and logs "stopped"; no process left, the port free', async () => {
    run = runNpmScript('start', { cwd: root, env: { PORT: '0', LOG_LEVEL: 'info' } });
    const [, url] = await run.waitFor(/"url":"(http:\/\/[^"]+)".*"msg":"listening"/);
    const port = Number(new URL(url!).port);
    expect(await portFree(port)).toBe(false);

    await run.terminate();
    await expect.poll(() => run!.groupAlive(), { timeout: 10_000 }).toBe(false);
    await run.closed();
    expect(run.output()).toMatch(/"signal":"SIGTERM".*"msg":"shutting down/);
    expect(run.output()).toMatch(/"msg":"stopped"/);
    expect(run.output()).not.toMatch(/"level":50/);
    expect(await portFree(port)).toBe(true);
  });

  it('npm run mock: Prism stops with it; no process left, the port free', async () => {
    const port = await freePort();
    run = runNpmScript('mock', { cwd: root, env: { MOCK_PORT: String(port) } });
    await run.waitFor(/Lookup mock \(Prism\) on http/);
    expect(await portFree(port)).toBe(false);

    await run.terminate();
    await expect.poll(() => run!.groupAlive(), { timeout: 10_000 }).toBe(false);
    await run.closed();
    expect(await portFree(port)).toBe(true);
  });
});
