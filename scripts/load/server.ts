// The service in its own process for a load run, as an operator starts it (node with
// tsx's loader, so the measured process is the server itself; support/serviceProcess.ts),
// its stdout drained unread once it listens, so logging never blocks it. The live
// memory probe (liveMemoryProbe.ts) rides along, answering over an IPC channel.
import type { ChildProcess } from 'node:child_process';
import { startServiceProcess } from '../../support/serviceProcess.js';

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
  const service = await startServiceProcess({
    env,
    nodeArgs: ['--expose-gc', '--import', 'tsx', '--import', './scripts/load/liveMemoryProbe.ts', 'server/main.ts'],
    ipc: true,
    keepOutput: false,
  });
  return {
    url: service.url,
    process: service.process,
    measureLiveMemory: () => measureLiveMemory(service.process),
    stop: () => service.terminate(),
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
