// Logs under faults: a storm of failures (the database down, or a bug answering 500 on
// every request) writes the first failure once, with its stack, then one summary line per
// window with the count, not a stack per request; and never a request's own values.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/errors.js';
import { FaultLog } from '../../server/observability/faultLog.js';
import { serializeError } from '../../server/observability/logger.js';
import { tokens } from '../fixtures/small.js';
import { useThrowawayDatabase } from '../helpers/databases.js';
import { databaseUrl, postgresTarget, viaPort } from '../helpers/environment.js';
import { captureLogs } from '../helpers/logCapture.js';
import { startConfiguredServer, startTestServer } from '../helpers/server.js';
import { startTcpProxy } from '../helpers/tcpProxy.js';

const STORM = 200;
const failureLines = (lines: Record<string, any>[]) => lines.filter((l) => l.level >= 50);

describe('the fault log', () => {
  it('logs the first failure of a kind in full, counts its repeats into one line per window, and forgets a kind that went quiet', async () => {
    const logs = captureLogs('info');
    const faults = new FaultLog(logs.logger, 100);
    const boom = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const unavailable = new ApiError('service_unavailable');
    for (let i = 0; i < 5; i++) faults.report(boom(), unavailable, { requestId: `r${i}`, route: i % 2 ? 'hello' : 'searchPersons' });
    expect(failureLines(logs.lines())).toHaveLength(1);
    expect(logs.lines()[0]).toMatchObject({ msg: 'request failed', requestId: 'r0', route: 'searchPersons', status: 503 });
    expect(logs.lines()[0]!.err.stack).toContain('ECONNREFUSED');
    await new Promise((r) => setTimeout(r, 150));
    expect(logs.lines()[1]).toMatchObject({ msg: 'request failed again (summary)', repeats: 4, routes: { hello: 2, searchPersons: 2 } });
    expect(logs.lines()[1]).not.toHaveProperty('err');
    await new Promise((r) => setTimeout(r, 250)); // a quiet window: forgotten
    faults.report(boom(), unavailable, { requestId: 'again', route: 'hello' });
    expect(logs.lines().at(-1)).toMatchObject({ msg: 'request failed', requestId: 'again' });
    faults.close();
  });

  it('keeps quoted input out of a database data exception, in the message and in the stack', () => {
    const error = Object.assign(new Error('invalid input syntax for type uuid: "Durand 415-555-0132"'), { code: '22P02' });
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain('Durand');
    expect(logged).toContain('invalid input syntax for type uuid');
  });
});

describe('a storm of 500s (PGlite)', () => {
  const database = useThrowawayDatabase('pglite');

  it(`writes ${STORM} failures as one full line and one summary`, async () => {
    const logs = captureLogs('info');
    const server = await startTestServer({ database, env: { LOG_LEVEL: 'info' }, logger: logs.logger });
    await database.db.query('ALTER TABLE employees RENAME COLUMN last_name_folded TO last_name_folded_gone');
    try {
      for (let i = 0; i < STORM; i++) {
        const res = await server.call('POST', '/v1/persons/search', {
          token: tokens.both,
          body: { lastName: 'Durand', firstName: 'Émile', phone: '(415) 555-0132' },
        });
        expect(res.status).toBe(500);
      }
    } finally {
      await database.db.query('ALTER TABLE employees RENAME COLUMN last_name_folded_gone TO last_name_folded');
      await server.close(); // flushes the summary
    }
    const failures = failureLines(logs.lines());
    const full = failures.filter((l) => l.err);
    expect(full).toHaveLength(1);
    expect(full[0]!.err.stack).toMatch(/last_name_folded/);
    expect(failures.reduce((n, l) => n + (l.repeats ?? 0), 0)).toBe(STORM - 1);
    expect(failures.length).toBeLessThanOrEqual(1 + Math.ceil(STORM / 10)); // summaries: at most one per 10 s window
    for (const value of ['Durand', 'Émile', '4155550132', '555-0132']) expect(logs.text()).not.toContain(value);
  });
});

describe.runIf(databaseUrl)('a storm of 503s while PostgreSQL is down', () => {
  const database = useThrowawayDatabase('postgres');

  it(`writes ${STORM} failures as one full line and summaries, and serves again after`, async () => {
    const proxy = await startTcpProxy(postgresTarget(database.url!));
    const logs = captureLogs('info');
    const server = await startConfiguredServer(
      { LOG_LEVEL: 'info', DATABASE_URL: viaPort(database.url!, proxy.port), PG_CONNECTION_TIMEOUT_MS: '500' },
      { logger: logs.logger },
    );
    try {
      expect((await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'dur' } })).status).toBe(200);
      await proxy.cut();
      for (let i = 0; i < STORM; i++) {
        const res = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'Durand' } });
        expect(res.status).toBe(503);
      }
      await proxy.restore();
      await expect.poll(async () => (await server.call('GET', '/readyz')).status, { timeout: 10_000 }).toBe(200);
    } finally {
      await server.close();
      await proxy.close();
    }
    const failures = failureLines(logs.lines());
    expect(failures.filter((l) => l.err?.stack)).toHaveLength(1);
    expect(failures.reduce((n, l) => n + (l.repeats ?? 0), 0)).toBe(STORM - 1);
    expect(logs.text()).not.toContain('Durand');
  });
});
