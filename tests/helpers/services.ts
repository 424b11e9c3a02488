// vitest's global setup: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), which some suites
// need beside the embedded PGlite. A URL that is set must answer, or the run stops at once
// with one clear message rather than with a failure per test. An absent URL skips those
// suites on a developer's machine (said here once), but fails the run under CI=true: CI
// must not go green having tested less than it claims.
import { Redis } from 'ioredis';
import pg from 'pg';

const services = [
  { variable: 'DATABASE_URL', name: 'PostgreSQL', answers: postgresAnswers },
  { variable: 'REDIS_URL', name: 'Redis', answers: redisAnswers },
] as const;

/** Every vitest project runs the global setup; the check runs once per vitest process. */
const checked = Symbol.for('lookup.tests.servicesChecked');

export default function checkServices(): Promise<void> {
  const memo = globalThis as { [checked]?: Promise<void> };
  memo[checked] ??= check();
  return memo[checked];
}

async function check(): Promise<void> {
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  const problems: string[] = [];
  for (const { variable, name, answers } of services) {
    const url = process.env[variable];
    if (!url) {
      if (ci) problems.push(`${variable} is not set, and CI=true: the ${name} suites must run in CI`);
      else console.warn(`${variable} is not set: the ${name} suites are skipped (set it to run them; CI=true makes this an error)`);
      continue;
    }
    const failure = await answers(url).then(
      () => undefined,
      (error: Error) => error.message || String(error),
    );
    if (failure) problems.push(`${variable} is set but ${name} does not answer there (${redact(url)}): ${failure}`);
  }
  if (problems.length) throw new Error(problems.join('\n'));
}

async function postgresAnswers(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisAnswers(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The socket's own error (ECONNREFUSED, ...) says more than the rejected connect.
  let socketError: Error | undefined;
  redis.on('error', (error: Error) => (socketError = error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw socketError ?? error;
  } finally {
    redis.disconnect();
  }
}

/** The URL without its password, for the message. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}
