// Graceful shutdown of the real process: on SIGTERM or SIGINT the server stops accepting
// connections, finishes the request in flight (a client still sending its body), closes
// its pool and exits 0.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials } from '../../server/demo/dataset.js';
import { throwawayDatabase, type ThrowawayDatabase } from '../helpers/databases.js';
import { startChildServer, type ChildServer } from './support/childServer.js';
import { databaseUrl } from './support/environment.js';
import { openRaw, parseResponse } from './support/rawHttp.js';

const signals = ['SIGTERM', 'SIGINT'] as const;
const token = demoCredentials[0]!.token;

function connectionRefused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe(`graceful shutdown (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  const children = new Map<string, ChildServer>();
  const databases: ThrowawayDatabase[] = [];
  beforeAll(async () => {
    // Both processes start at once: starting is the slow part.
    await Promise.all(
      signals.map(async (signal) => {
        const env: Record<string, string> = { APP_ENV: 'development', DEMO_DATA: 'true', SHUTDOWN_TIMEOUT_MS: '15000' };
        if (databaseUrl) {
          const database = await throwawayDatabase('postgres', { migrate: false });
          databases.push(database);
          env.DATABASE_URL = database.url!;
        }
        children.set(signal, await startChildServer(env));
      }),
    );
  }, 180_000);
  afterAll(async () => {
    for (const child of children.values()) await child.stop();
    for (const database of databases) await database.drop();
  });

  it.each(signals)('on %s: refuses new connections, completes the in-flight request with 200, exits 0', async (signal) => {
    const child = children.get(signal)!;
    const body = JSON.stringify({ lastName: 'a', limit: 3 });
    const half = Math.floor(body.length / 2);

    // In flight: headers and half of the body sent, the rest still to come.
    const inFlight = await openRaw(child.url, 20_000);
    inFlight.socket.write(
      `POST /v1/persons/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    // And an idle keep-alive connection, which must not hold the shutdown up.
    expect((await fetch(`${child.url}/healthz`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));

    child.process.kill(signal);
    await child.waitForLog('shutting down: finishing in-flight requests');
    await expect.poll(() => connectionRefused(child.url), { timeout: 5_000 }).toBe(true);
    expect(child.process.exitCode).toBeNull(); // still finishing

    await new Promise((r) => setTimeout(r, 300));
    const sent = performance.now();
    inFlight.socket.write(body.slice(half));
    const exchange = await inFlight.done;
    const res = parseResponse(exchange.text);
    expect(res.status, exchange.text).toBe(200);
    expect(JSON.parse(res.body).persons.length).toBeGreaterThan(0);
    // The answer tells the keep-alive client to let go, and the server closes right away
    // rather than after the keep-alive timeout (5 s).
    expect(res.headers.connection).toBe('close');
    expect(exchange.closedByServer).toBe(true);
    expect(performance.now() - sent).toBeLessThan(3_000);

    const started = performance.now();
    const { code } = await child.exited;
    expect(code, child.output()).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
    await child.waitForLog('stopped', 0);
  });
});
