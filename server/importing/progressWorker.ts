// The thread that writes the import command's progress (progressReport.ts): it reads the
// step and the count the import's thread sets, and writes straight to stderr's file
// descriptor, so its lines go on while the import's thread is held by a statement.
//
// Its source is plain JavaScript, run with `eval`, and loads nothing but two Node modules:
// a thread started on a TypeScript module registers tsx's loader first (workerEntry.ts),
// and that alone cost the import about 30 MB of its 256 MB of RSS (issue 59). Its data:
// ProgressWorkerData (progressReport.ts).
export const progressThreadSource = String.raw`
const { writeSync } = require('node:fs');
const { workerData: data } = require('node:worker_threads');
const numbers = new Int32Array(data.shared);
let readingEndedAt;

function line() {
  const now = Date.now();
  const step = data.steps[Atomics.load(numbers, 0)] ?? 'starting';
  const records = Atomics.load(numbers, 1);
  // The rate of reading and checking: while it runs, and as it ended once past it.
  if (step !== 'reading and checking' && step !== 'waiting for another import' && records && readingEndedAt === undefined) readingEndedAt = now;
  const seconds = ((readingEndedAt ?? now) - data.startedAt) / 1000;
  const rate = seconds > 0 ? Math.round(records / seconds) : 0;
  const elapsed = Math.round((now - data.startedAt) / 1000);
  return data.label + ': ' + step + '; ' + records.toLocaleString('en-US') + ' records read and checked (' +
    rate.toLocaleString('en-US') + ' records/s); ' + elapsed + ' s';
}

function write(text) {
  try {
    writeSync(2, text);
  } catch {
    // (stderr closed or full: progress is not worth failing for.)
  }
}

// (The import's thread ends this thread, and clears a live line.)
setInterval(() => write(data.live ? '\r\x1b[K' + line() : line() + '\n'), data.everyMs);
`;
