// The import's own step timings: with IMPORT_TIMINGS=1 in its environment, `npm run
// import` writes each step's time ("import step <name>: <n> ms") and each statement's
// ("  <n> ms: <first line of the SQL>") to stderr, which ImportRun.summary holds.

export interface ImportTimings {
  steps: { step: string; ms: number }[];
  statements: { sql: string; ms: number }[];
}

/** Whether the bench was started with IMPORT_TIMINGS=1 (the import processes inherit it). */
export const timingsRequested = (env: NodeJS.ProcessEnv = process.env) => env.IMPORT_TIMINGS === '1';

/** The step and statement timings in an import's output; undefined when it wrote none. */
export function importTimings(output: string): ImportTimings | undefined {
  const steps: ImportTimings['steps'] = [];
  const statements: ImportTimings['statements'] = [];
  for (const line of output.split('\n')) {
    const step = /^import step (.+): (\d+) ms$/.exec(line.trim());
    if (step) steps.push({ step: step[1]!, ms: Number(step[2]) });
    const statement = /^\s+(\d+) ms: (.*)$/.exec(line);
    if (statement) statements.push({ sql: statement[2]!, ms: Number(statement[1]) });
  }
  return steps.length || statements.length ? { steps, statements } : undefined;
}
