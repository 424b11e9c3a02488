// A worker thread of the import (workers.ts): checks the pieces of an NDJSON file it is
// handed, in order, and answers each with its checked chunk, the COPY text as bytes that
// move to the import's thread without a copy.
import { parentPort, workerData } from 'node:worker_threads';
import { RecordChecker } from './check.js';
import type { CheckWorkerData } from './workers.js';

const data = workerData as CheckWorkerData;
const checker = new RecordChecker(data.defaultPhoneRegion, data.keep);
const encoder = new TextEncoder();
let pieces = 0;

parentPort!.on('message', ({ bytes, firstLine }: { bytes: Uint8Array; firstLine: number }) => {
  if (++pieces === data.failOnPiece) throw new Error(`check worker failed on its piece ${pieces} (as the test asked)`);
  checker.addLines(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), firstLine);
  const chunk = checker.take();
  const transfer: ArrayBuffer[] = [];
  for (const [table, text] of Object.entries(chunk.rows) as [keyof typeof chunk.rows, string][]) {
    const encoded = encoder.encode(text);
    chunk.rows[table] = encoded;
    transfer.push(encoded.buffer as ArrayBuffer);
  }
  parentPort!.postMessage(chunk, transfer);
});
