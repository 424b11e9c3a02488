// `npm run mock` as a frontend developer runs it (the command as a process): it listens on
// the port PORT names, as `npm start` does, and says so; a port in use or a port that is no
// port is one line and exit 1, never Prism's usage text or a stack.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGTERM');
});

/** Starts the command; resolves when it prints `until` (then it keeps running) or exits. */
function mock(env: Record<string, string>, until = /Lookup mock \(Prism\) on/): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/start.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  return new Promise((resolve) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      if (until.test(stdout)) resolve({ code: null, stdout, stderr });
    });
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run mock, as a process', () => {
  it('listens on PORT and says where the port came from', async () => {
    const port = await freePort();
    const { code, stdout } = await mock({ PORT: String(port) });
    expect(code).toBeNull();
    expect(stdout).toContain(`Lookup mock (Prism) on http://127.0.0.1:${port} (port from PORT)`);
    const res = await fetch(`http://127.0.0.1:${port}/v1/companies/acme-corp/hello`, { headers: { authorization: 'Bearer any' } });
    expect(res.status).toBe(200);
  }, 60_000);

  it('a port in use: one line naming it and where it came from, exit 1', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const { code, stdout, stderr } = await mock({ PORT: String(port) });
      expect(code).toBe(1);
      expect(stderr).toBe(`npm run mock: port ${port} (from PORT) is in use: set MOCK_PORT or --port to another, or 0 for any free port\n`);
      expect(stdout).toBe('');
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  }, 60_000);

  it('a port that is no port: one line, exit 1, before Prism starts', async () => {
    const { code, stdout, stderr } = await mock({ MOCK_PORT: 'http' });
    expect([code, stdout, stderr]).toEqual([1, '', 'npm run mock: MOCK_PORT must be a port number from 0 to 65535 (0: any free port); got "http"\n']);
  }, 60_000);
});
