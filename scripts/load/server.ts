// The service in its own process for a load run, as an operator starts it (node with
// tsx's loader, so the measured process is the server itself); its URL comes from the
// "listening" log line, and its stdout is drained so logging never blocks it.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface LoadTarget {
  url: string;
  process: ChildProcess;
  stop(): Promise<number | null>;
}

export async function startLoadTarget(env: Record<string, string>): Promise<LoadTarget> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line);
        if (entry.msg === 'listening') {
          child.stdout!.off('data', onData);
          child.stdout!.resume(); // keep draining
          resolve(entry.url);
        }
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${stderr}`)));
  });
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A gauge from the server's own /metrics (process_resident_memory_bytes, ...). */
export async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const match = text.match(new RegExp(`^${name} ([0-9.e+]+)$`, 'm'));
  if (!match) throw new Error(`metric ${name} not found`);
  return Number(match[1]);
}
