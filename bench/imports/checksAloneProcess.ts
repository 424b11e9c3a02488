// The child process of checksAlone.ts: the file's records read, parsed and checked in the
// import's worker threads, one per core, and nothing more; prints its milliseconds.
import { availableParallelism } from 'node:os';
import { checkedInWorkers } from '../../server/importing/workers.js';

const [file, region] = process.argv.slice(2);
const workers = availableParallelism();
const started = performance.now();
let records = 0;
for await (const chunk of checkedInWorkers(file!, { defaultPhoneRegion: region!, keep: 100 }, { workers })) records += chunk.records;
process.stdout.write(`${JSON.stringify({ records, workers, ms: Math.round(performance.now() - started) })}\n`);
