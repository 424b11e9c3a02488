// The load generator's worker thread (loadGenerator.ts): runs each period of the open loop it
// is sent, answering with its samples; 'ready' once loaded.
import { parentPort } from 'node:worker_threads';
import type { LoadGeneratorRun } from './loadGenerator.js';
import { openLoop } from './openLoop.js';

let stop: (() => void) | undefined;
parentPort!.on('message', async (message: LoadGeneratorRun | 'stop') => {
  if (message === 'stop') return stop?.();
  const { seconds, ...load } = message;
  const until = seconds === undefined ? new Promise<void>((resolve) => (stop = resolve)) : { seconds };
  parentPort!.postMessage(await openLoop({ ...load, until }));
});
parentPort!.postMessage('ready');
