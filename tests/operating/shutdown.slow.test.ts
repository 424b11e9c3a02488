// Graceful shutdown of the real process: on SIGTERM or SIGINT the server stops accepting
// connections (refused at connect), finishes the request in flight (a client still
// sending its body), answers every request that arrives on a keep-alive connection it
// already had (with Connection: close) instead of closing that connection under the
// client, closes its pool and exits 0. Under load, no request is lost: each is answered
// or refused at connect.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials } from '../../server/demo/dataset.js';
import { LINGER_MS } from '../../server/http/lingeringClose.js';
import { type ChildServer, startChildServer } from '../helpers/childServer.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseUrl } from '../helpers/environment.js';
import { openRaw, parseResponse } from '../helpers/rawHttp.js';

const signals = ['SIGTERM', 'SIGINT'] as const;
const token = demoCredentials[0]!.token;
const KEEP_ALIVE_TIMEOUT_MS = 3_000;

function connectionRefused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Everything a raw connection receives, and a wait for its n-th (small, JSON) response. */
function received(socket: net.Socket) {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const responses = () => text.split(/(?=HTTP\/1\.1 )/).filter(Boolean);
  return {
    async nth(n: number) {
      await expect.poll(() => responses().length >= n && responses()[n - 1]!.endsWith('}'), { timeout: 5_000 }).toBe(true);
      return parseResponse(responses()[n - 1]!);
    },
  };
}

describe(`graceful shutdown (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  const children = new Map<string, ChildServer>();
  const databases: ThrowawayDatabase[] = [];
  beforeAll(async () => {
    // All processes start at once: starting is the slow part.
    await Promise.all(
      [...signals, 'load', 'malformed'].map(async (name) => {
        const env: Record<string, string> = {
          APP_ENV: 'development',
          DEMO_DATA: 'true',
          SHUTDOWN_TIMEOUT_MS: '15000',
          KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
          LOG_LEVEL: 'warn',
        };
        if (name === 'load') Object.assign(env, { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' });
        if (databaseUrl) {
          const database = await throwawayDatabase('postgres', { migrate: false });
          databases.push(database);
          env.DATABASE_URL = database.url!;
        }
        children.set(name, await startChildServer({ ...env, LOG_LEVEL: 'info' }));
      }),
    );
  }, 180_000);
  afterAll(async () => {
    for (const child of children.values()) await child.stop();
    for (const database of databases) await database.drop();
  });

  it.each(signals)(
    'on %s: refuses new connections, completes the in-flight request, answers what arrives on an idle keep-alive connection, exits 0',
    async (signal) => {
      const child = children.get(signal)!;
      const body = JSON.stringify({ lastName: 'a', limit: 3 });
      const half = Math.floor(body.length / 2);

      // In flight: headers and half of the body sent, the rest still to come.
      const inFlight = await openRaw(child.url, 20_000);
      inFlight.socket.write(
        `POST /v1/persons/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
      );
      // And a keep-alive connection, idle when the signal comes.
      const idle = await openRaw(child.url, 20_000);
      const onIdle = received(idle.socket);
      idle.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      const first = await onIdle.nth(1);
      expect(first.status).toBe(200);
      expect(first.headers.connection).toBe('keep-alive');
      await new Promise((r) => setTimeout(r, 200));

      const signalled = performance.now();
      child.process.kill(signal);
      await child.waitForLog('shutting down: finishing in-flight requests');
      await expect.poll(() => connectionRefused(child.url), { timeout: 5_000 }).toBe(true);
      expect(child.process.exitCode).toBeNull(); // still finishing

      // A client that sends on its idle connection just after the signal is answered, and
      // told to let go.
      await new Promise((r) => setTimeout(r, 300));
      idle.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      const second = await onIdle.nth(2);
      expect(second.status).toBe(200);
      expect(second.headers.connection).toBe('close');
      expect((await idle.done).closedByServer).toBe(true);

      const sent = performance.now();
      inFlight.socket.write(body.slice(half));
      const exchange = await inFlight.done;
      const res = parseResponse(exchange.text);
      expect(res.status, exchange.text).toBe(200);
      expect(JSON.parse(res.body).persons.length).toBeGreaterThan(0);
      // The answer tells the keep-alive client to let go, and the server closes right away.
      expect(res.headers.connection).toBe('close');
      expect(exchange.closedByServer).toBe(true);
      expect(performance.now() - sent).toBeLessThan(3_000);

      // Nothing holds it any more: it exits without waiting out the keep-alive timeout.
      const { code } = await child.exited;
      expect(code, child.output()).toBe(0);
      expect(performance.now() - signalled).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + 1_000);
      await child.waitForLog('stopped', 0);
    },
  );

  it('a connection holding a body with malformed framing does not hold the shutdown: exit 0, no error line', async () => {
    const child = children.get('malformed')!;
    // A client that sends a body the parser refuses, then keeps its side of the connection open.
    const held = await openRaw(child.url, 20_000, { allowHalfOpen: true });
    const fin = new Promise((resolve) => held.socket.once('end', resolve));
    held.socket.write(
      `POST /v1/persons/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n`,
    );
    await fin;
    const signalled = performance.now();
    child.process.kill('SIGTERM');
    const { code } = await child.exited;
    expect(code, child.output()).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(LINGER_MS + 1_000);
    await child.waitForLog('stopped', 0);
    expect(child.logs.filter((line) => line.level >= 50)).toEqual([]);
    held.socket.destroy();
    expect(parseResponse((await held.done).text).status).toBe(400);
  });

  it('under load, loses no request: each one sent around SIGTERM is answered or refused at connect', async () => {
    const child = children.get('load')!;
    const { hostname, port } = new URL(child.url);
    const outcomes: { after: boolean; outcome: string }[] = [];
    let signalled = false;
    let stop = false;
    // Keep-alive clients, one connection each, sending back to back (some with a pause, so
    // that they are idle, then send, just when the signal comes).
    const client = async (pauseMs: number) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        while (!stop) {
          const outcome = await new Promise<string>((resolve) => {
            const req = http.get({ hostname, port, path: '/v1/companies/acme-corp/hello', agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
              res.resume();
              res.on('end', () => resolve(String(res.statusCode)));
              res.on('error', () => resolve('broken response'));
            });
            req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
          });
          outcomes.push({ after: signalled, outcome });
          if (outcome === 'ECONNREFUSED') await new Promise((r) => setTimeout(r, 20));
          if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
        }
      } finally {
        agent.destroy();
      }
    };
    const clients = [0, 0, 0, 0, 0, 0, 5, 50].map(client);
    await new Promise((r) => setTimeout(r, 1_500));
    child.process.kill('SIGTERM');
    signalled = true;
    const { code } = await child.exited;
    await new Promise((r) => setTimeout(r, 300)); // and a little after it is gone
    stop = true;
    await Promise.all(clients);

    const lost = outcomes.filter((o) => o.outcome !== '200' && o.outcome !== 'ECONNREFUSED');
    expect(lost, JSON.stringify(lost.slice(0, 10))).toEqual([]);
    expect(outcomes.filter((o) => !o.after && o.outcome === '200').length).toBeGreaterThan(50);
    expect(outcomes.filter((o) => o.after && o.outcome === '200').length, 'requests answered after the signal').toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.after && o.outcome === 'ECONNREFUSED').length, 'refused at connect').toBeGreaterThan(0);
    expect(code, child.output()).toBe(0);
  }, 60_000);
});
