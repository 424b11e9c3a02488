// A worker thread of the import (workers.ts): checks the pieces of an NDJSON file it is
// handed, in order, and answers each with its checked chunk, whose COPY text (bytes)
// moves to the import's thread without a copy.
import { parentPort, workerData } from 'node:worker_threads';
import { RecordChecker } from './check.js';
import type { NdjsonPiece } from './read.js';
import type { CheckWorkerData } from './workers.js';

const data = workerData as CheckWorkerData;
const checker = new RecordChecker(data.defaultPhoneRegion, data.keep);
let pieces = 0;

parentPort!.on('message', (piece: NdjsonPiece) => {
  if (++pieces === data.failOnPiece) throw new Error(`check worker failed on its piece ${pieces} (as the test asked)`);
  checker.addLines(piece);
  const chunk = checker.take();
  parentPort!.postMessage(
    chunk,
    Object.values(chunk.rows).map((bytes) => bytes.buffer),
  );
});
