// The open loop (openLoop.ts) in a worker thread of its own: its sends wait for nothing the
// bench's own thread does (spawning and reading the import, sampling its memory, and that
// thread's garbage collection, whose heap held the dataset), so a slow answer is the
// service's or the machine's, not the load generator's. One worker for every period. The
// thread runs at a higher priority than the service, the database and the import: it stands
// for readers on machines of their own, and on a machine whose every core the import keeps
// busy its own waits for a core would count in every latency it measures.
import { Worker } from 'node:worker_threads';
import { workerEntryAt } from '../../server/importing/workerEntry.js';
import type { OpenLoopLoad, OpenLoopSamples } from './openLoop.js';

/** The load generator thread's priority (nice), where the bench may set it. */
export const GENERATOR_NICE = -10;

/** What the worker is sent: a period's load, with `seconds`, or until told 'stop'. */
export type LoadGeneratorRun = Omit<OpenLoopLoad, 'until'> & { seconds?: number };

export class LoadGenerator {
  private constructor(private readonly worker: Worker) {}

  /** The worker started and ready (its modules loaded). */
  static async start(): Promise<LoadGenerator> {
    const entry = workerEntryAt(new URL('./loadGeneratorWorker', import.meta.url));
    const worker = new Worker(entry.script, { eval: entry.eval });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    return new LoadGenerator(worker);
  }

  /** One period of the open loop: its samples once `load.until` is reached. */
  run(load: OpenLoopLoad): Promise<OpenLoopSamples> {
    const { until, ...rest } = load;
    const done = new Promise<OpenLoopSamples>((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      const stopped = (code: number) => reject(new Error(`the load generator's worker stopped (exit code ${code})`));
      this.worker.once('error', failed).once('exit', stopped);
      this.worker.once('message', (samples: OpenLoopSamples) => {
        this.worker.off('error', failed).off('exit', stopped);
        resolve(samples);
      });
    });
    const timed = 'seconds' in until;
    this.worker.postMessage({ ...rest, seconds: timed ? until.seconds : undefined } satisfies LoadGeneratorRun);
    if (!timed) void until.finally(() => this.worker.postMessage('stop')).catch(() => {});
    return done;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
