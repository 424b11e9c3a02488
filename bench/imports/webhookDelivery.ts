// How long a change takes from an import's commit to a webhook receiver on this machine
// (issue target: p99 under 1 s), on the PostgreSQL bench database:
//
//   const delivery = await measureWebhookDelivery(databaseUrl);   // { p50Ms, p99Ms, maxMs, ... }
//
// The service runs as it would in production, as a process of its own (from source, with
// WEBHOOK_ALLOW_PRIVATE_TARGETS so that it posts to plain http on 127.0.0.1), its webhook
// worker polling at its default interval. This process registers an endpoint for a company
// of its own (`bench-webhooks`), then `samples` times imports one new employment there and
// times from the import's return (its commit is done) to the delivery that carries it.
// Imports are spaced by a random pause so that they do not fall in step with the polling.
// Everything it added (company, employments, endpoint) is removed at the end.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { insertEndpoint, removeEndpoint } from '../../server/db/stores/webhooks.js';
import { decodeChangeCursor } from '../../server/domain/changeCursor.js';
import { newWebhookSecret } from '../../server/domain/webhookSigning.js';
import { importRecords } from '../../server/importing/index.js';
import type { EmployeeRecord, ImportRecord } from '../../server/importing/records.js';
import { FROM_SOURCE, freePort, startServiceProcess } from '../../support/serviceProcess.js';
import { childEnv } from '../processes.js';
import { percentile, round } from '../stats.js';

const COMPANY = 'bench-webhooks';

export interface WebhookDelivery {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The service's WEBHOOKS_POLL_INTERVAL_MS in this run. */
  pollIntervalMs: number;
}

export async function measureWebhookDelivery(databaseUrl: string, options: { samples?: number; pollIntervalMs?: number } = {}): Promise<WebhookDelivery> {
  const { samples = 100, pollIntervalMs = 200 } = options;
  const db = await openDatabase({ databaseUrl });
  const receiver = await startReceiver();
  const endpointId = randomUUID();
  const added: string[] = [];
  let service: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
  try {
    await migrate(db);
    await importRecords(db, [{ type: 'company', id: COMPANY, name: 'Webhook bench' }], 'US');
    await insertEndpoint(db, { id: endpointId, url: receiver.url, companies: [COMPANY], events: null, secret: newWebhookSecret(), now: new Date() });
    const port = await freePort();
    service = await startServiceProcess({
      command: [process.execPath, ...FROM_SOURCE],
      baseEnv: childEnv({}),
      env: {
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        LOG_LEVEL: 'info',
        DEMO_DATA: 'false',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOKS_POLL_INTERVAL_MS: String(pollIntervalMs),
      },
      keepOutput: false,
    });
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * pollIntervalMs));
      const id = randomUUID();
      added.push(id);
      await importRecords(db, [employment(id)], 'US');
      const committed = performance.now();
      const arrived = await receiver.arrival(id);
      times.push(arrived - committed);
    }
    return { samples, p50Ms: round(percentile(times, 0.5), 1), p99Ms: round(percentile(times, 0.99), 1), maxMs: round(Math.max(...times), 1), pollIntervalMs };
  } finally {
    await service?.terminate();
    await removeEndpoint(db, endpointId).catch(() => {});
    await cleanUp(db, added).catch(() => {});
    await receiver.close();
    await db.close();
  }
}

/** A new unlinked employment of the bench's company (one employee.created change). */
function employment(id: string): EmployeeRecord {
  return {
    type: 'employee',
    id,
    companyId: COMPANY,
    personId: null,
    firstName: 'Webhook',
    lastName: 'Bench',
    dateOfBirth: '1990-01-01',
    gender: null,
    email: 'webhook.bench@example.com',
    phone: '+14155550100',
    address: { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', postalCode: '62701' },
    externalIds: [],
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
  } as EmployeeRecord;
}

async function cleanUp(db: Database, employments: string[]): Promise<void> {
  const deletions: ImportRecord[] = employments.map((id) => ({ type: 'delete', record: 'employee', id }) as ImportRecord);
  await importRecords(db, [...deletions, { type: 'delete', record: 'company', id: COMPANY } as ImportRecord], 'US');
}

/** A receiver on 127.0.0.1 that notes when each employment's change arrives (signatures are the tests' concern). */
async function startReceiver(): Promise<{ url: string; arrival(employeeId: string): Promise<number>; close(): Promise<void> }> {
  const arrived = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const { changes } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { changes: { employeeId: string | null; position: string }[] };
      for (const change of changes) {
        if (!change.employeeId || decodeChangeCursor(change.position) === undefined) continue;
        arrived.set(change.employeeId, at);
        waiting.get(change.employeeId)?.(at);
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/bench`,
    arrival: (employeeId) => {
      const at = arrived.get(employeeId);
      if (at !== undefined) return Promise.resolve(at);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no delivery of ${employeeId} within 30 s`)), 30_000);
        waiting.set(employeeId, (when) => {
          clearTimeout(timer);
          resolve(when);
        });
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
