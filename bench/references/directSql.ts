// Reference: the person query alone (or the employees query, db/persons/employeeQueries.ts). Runs findPersons (server/db/persons/persons.ts) on the
// database the service would open with the same environment (loadConfig + openDatabase:
// the same pool size, session settings and statement timeout, or PGlite), with the same
// filters and the same number of concurrent callers as the HTTP load: the database's own
// limit, with no HTTP, no validation and no JSON in the way.
// A child process driven over IPC, pinned like the server, so both run on the same core.
import { loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { SqlEmployeeQueries } from '../../server/db/persons/employeeQueries.js';
import { findPersons } from '../../server/db/persons/persons.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import { sampleRss } from '../cpu.js';
import type { Measured } from '../loadHttp.js';
import type { EmployeeAsk } from '../scenarios.js';
import { percentile } from '../stats.js';

export interface DirectRun {
  type: 'run';
  /** Complete filters, as the service derives them for the credential (scenarios.ts). */
  filters: (PersonFilter | EmployeeAsk)[];
  concurrency: number;
  durationMs: number;
}

export type DirectResult = { type: 'result' } & Pick<Measured, 'requests' | 'errors' | 'seconds' | 'p50' | 'p99' | 'rssPeakMb' | 'firstError'>;

async function main(): Promise<void> {
  const db = await openDatabase(loadConfig(process.env));
  await db.ping();
  const employees = new SqlEmployeeQueries(db);

  process.on('message', async (message: DirectRun | { type: 'stop' }) => {
    if (message.type === 'stop') {
      await db.close();
      process.exit(0);
    }
    const { filters, concurrency, durationMs } = message;
    const latencies: number[] = [];
    let errors = 0;
    let firstError: string | undefined;
    let next = 0;
    const rss = sampleRss(process.pid);
    const started = performance.now();
    const deadline = started + durationMs;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) {
          const filter = filters[next++ % filters.length]!;
          const t = performance.now();
          try {
            await ('employees' in filter ? employees.findPage(filter) : findPersons(db, filter));
            latencies.push(performance.now() - t);
          } catch (error) {
            errors++;
            firstError ??= String((error as Error)?.message ?? error);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const result: DirectResult = {
      type: 'result',
      requests: latencies.length,
      errors,
      seconds,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      rssPeakMb: rss.stop(),
      firstError,
    };
    process.send!(result);
  });
  process.send!({ type: 'ready' });
}

main().catch((error) => {
  process.stderr.write(`direct-sql runner failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
