// The floor every import goal is a ratio to: a raw COPY of the rows a file stores
// (server/importing/storedRows.ts), into unlogged, unindexed tables of the same columns,
// without constraints or derived data.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { EmployeeRecord, EmploymentRecord, ImportRecord } from '../../server/importing/records.js';
import { copyLine, storedEmploymentColumns, storedEmploymentRow } from '../../server/importing/storedRows.js';
import { round } from '../stats.js';
import type { ImportRun } from './importCli.js';

/** COPYs per reference, the fastest taken: a COPY is only ever slowed (by other work, or the disk still writing the last). */
export const RAW_COPIES = 3;

/** `run` beside a raw COPY of the same records, into the same database, in the same run. */
export async function withRawCopy(run: ImportRun, databaseUrl: string, records: Iterable<ImportRecord>, digits = 3, copies = RAW_COPIES): Promise<ImportRun> {
  run.copySeconds = round(await rawCopy(databaseUrl, records, copies), digits);
  run.copyRecordsPerSecond = Math.round(run.records / run.copySeconds);
  return run;
}

/** Seconds of the fastest of `copies` copies of the records' rows. */
async function rawCopy(databaseUrl: string, records: Iterable<ImportRecord>, copies: number): Promise<number> {
  // Rows are built first (the generator's cost is not COPY's); the copy alone is timed.
  const { persons, employees } = storedRows(records);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const seconds: number[] = [];
    for (let i = 0; i < copies; i++) {
      await client.query('DROP TABLE IF EXISTS bench_copy_persons, bench_copy_employees');
      await client.query('CREATE UNLOGGED TABLE bench_copy_persons (LIKE persons INCLUDING DEFAULTS)');
      await client.query('CREATE UNLOGGED TABLE bench_copy_employees (LIKE employees INCLUDING DEFAULTS)');
      const started = performance.now();
      await copyChunks(client, 'bench_copy_persons (id, created_at, updated_at)', persons);
      await copyChunks(client, `bench_copy_employees (${storedEmploymentColumns.join(', ')})`, employees);
      seconds.push((performance.now() - started) / 1000);
    }
    await client.query('DROP TABLE bench_copy_persons, bench_copy_employees');
    return Math.min(...seconds);
  } finally {
    await client.end();
  }
}

/**
 * The COPY text of the persons and employments the records store, in chunks of
 * CHUNK_LINES lines. Each chunk is joined as it fills: a line built by concatenation is a
 * rope of one node per field until flattened, and the whole dataset's 2.5 million lines
 * kept that way outgrew the bench's 4 GB heap.
 */
export function storedRows(records: Iterable<ImportRecord>): { persons: string[]; employees: string[] } {
  const persons = new Chunks();
  const employees = new Chunks();
  // Each person's times, for the employments that follow it (the last 10,000 are enough in a file written person by person).
  const times = new Map<string, { createdAt: string; updatedAt: string }>();
  let pending: { employee: EmployeeRecord; records: EmploymentRecord[] } | undefined;
  const flushEmployee = () => {
    if (pending) {
      const { employee, records } = pending;
      employees.add(copyLine(storedEmploymentRow(employee, records, employee.personId ? (times.get(employee.personId) ?? null) : null)));
    }
    pending = undefined;
  };
  for (const r of records) {
    if (r.type === 'person') {
      persons.add(copyLine([r.id, r.createdAt, r.updatedAt]));
      times.set(r.id, r);
      if (times.size > 10_000) times.delete(times.keys().next().value!);
    } else if (r.type === 'employee') {
      flushEmployee();
      pending = { employee: r, records: [] };
    } else if (pending && 'employeeId' in r && r.type !== 'delete') pending.records.push(r);
  }
  flushEmployee();
  return { persons: persons.done(), employees: employees.done() };
}

const CHUNK_LINES = 5_000;

/** Lines gathered into flat chunks of CHUNK_LINES. */
class Chunks {
  private readonly chunks: string[] = [];
  private lines: string[] = [];

  add(line: string): void {
    this.lines.push(line);
    if (this.lines.length === CHUNK_LINES) this.flush();
  }

  done(): string[] {
    this.flush();
    return this.chunks;
  }

  private flush(): void {
    if (this.lines.length) this.chunks.push(this.lines.join(''));
    this.lines = [];
  }
}

/** Copies `lines` into `target` ("table (columns)"), a few thousand at a time. */
export async function copyLines(client: pg.Client, target: string, lines: readonly string[]): Promise<void> {
  const chunks: string[] = [];
  for (let i = 0; i < lines.length; i += CHUNK_LINES) chunks.push(lines.slice(i, i + CHUNK_LINES).join(''));
  await copyChunks(client, target, chunks);
}

/** Copies COPY text, a chunk at a time, into `target`. */
export async function copyChunks(client: pg.Client, target: string, chunks: readonly string[]): Promise<void> {
  await pipeline(Readable.from(chunks), client.query(copyStreams.from(`COPY ${target} FROM STDIN`)));
}
