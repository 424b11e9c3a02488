// The service in its own process for a load run, as an operator starts it (node with
// tsx's loader, so the measured process is the server itself); its URL comes from the
// "listening" log line, and its stdout is drained so logging never blocks it. The live
// memory probe (liveMemoryProbe.ts) rides along, answering over an IPC channel.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Bytes in use after a full garbage collection, and the RSS at that moment. */
export interface LiveMemory {
  heapUsed: number;
  external: number;
  rss: number;
}

export interface LoadTarget {
  url: string;
  process: ChildProcess;
  measureLiveMemory(): Promise<LiveMemory>;
  stop(): Promise<number | null>;
}

export async function startLoadTarget(env: Record<string, string>): Promise<LoadTarget> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--import', './scripts/load/liveMemoryProbe.ts', 'server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
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
    measureLiveMemory: () => measureLiveMemory(child),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Asks a process running liveMemoryProbe.ts (with an IPC channel) for its live memory. */
export function measureLiveMemory(child: ChildProcess): Promise<LiveMemory> {
  return new Promise<LiveMemory>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the process did not report its live memory within 10 s')), 10_000);
    const onMessage = (message: { liveMemory?: LiveMemory }) => {
      if (!message.liveMemory) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message.liveMemory);
    };
    child.on('message', onMessage);
    child.send('measure-live-memory');
  });
}
