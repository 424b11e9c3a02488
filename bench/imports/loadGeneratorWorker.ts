// The load generator's worker thread (loadGenerator.ts): runs each period of the open loop it
// is sent, answering with its samples; 'ready' once loaded.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { GENERATOR_NICE, type LoadGeneratorRun } from './loadGenerator.js';
import { openLoop } from './openLoop.js';

// This thread alone (Linux sets a priority per thread) runs before the processes measured,
// where the bench may raise it (as root); elsewhere it stays as it was, and the samples say so.
try {
  setPriority(GENERATOR_NICE);
} catch {}

let stop: (() => void) | undefined;
parentPort!.on('message', async (message: LoadGeneratorRun | 'stop') => {
  if (message === 'stop') return stop?.();
  const { seconds, ...load } = message;
  const until = seconds === undefined ? new Promise<void>((resolve) => (stop = resolve)) : { seconds };
  parentPort!.postMessage(await openLoop({ ...load, until }));
});
parentPort!.postMessage('ready');
