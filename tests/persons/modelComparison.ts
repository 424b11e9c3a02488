// The server against the reference model, over random datasets, credentials and queries
// (Search persons, Get person and Search employees), on each engine: the comparison randomized.test.ts (a few datasets, in npm test) and
// randomized.slow.test.ts (many more, in test:all) run, and, through a standby,
// replicas/reads.test.ts. A failure names its seed; rerun randomized.test.ts with SEED=<n>
// DATASETS=1 to replay it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../server/dataset/random.js';
import type { Database } from '../../server/db/engines/database.js';
import { importRecords } from '../../server/importing/index.js';
import type { Call } from '../helpers/call.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { modelData, modelSearch, modelSearchEmployees } from './model.js';
import { phones, randomDataset, randomEmployeeQuery, randomQuery } from './randomDataset.js';

const e164Of = new Map(phones.flatMap((p) => p.formats.map((f) => [f, p.e164] as const)));

/**
 * Datasets from seed `firstSeed` on: `datasets` of them with companies inline, a third as
 * many with the credential join; `queries` searches and gets on each.
 */
export function compareWithModel({ firstSeed, datasets, queries }: { firstSeed: number; datasets: number; queries: number }): void {
  // Both ways of authorizing in SQL (db/reads/plans.ts authorization): companies inline, and the join with
  // credential_companies that broad credentials use (forced here with a limit of 0).
  const modes = [
    { authorization: 'inline companies', inlineMax: '200', datasets },
    { authorization: 'credential join', inlineMax: '0', datasets: Math.ceil(datasets / 3) },
  ];
  const cases = engines.flatMap((engine) => modes.map((mode) => ({ engine, ...mode })));
  const QUERIES = queries;

  describe.each(cases)('server agrees with the reference model on $engine, $authorization', ({ engine, inlineMax, datasets: DATASETS }) => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ engine, env: { PG_INLINE_COMPANIES_MAX: inlineMax } });
    });
    afterAll(() => server?.close());

    it(
      `over ${DATASETS} datasets from seed ${firstSeed} × ${QUERIES} searches and gets`,
      () => expectModelAgreement({ server, db: server.database.db, firstSeed, datasets: DATASETS, queries: QUERIES }),
      600_000,
    );
  });
}

/** A service to compare with the model, and the database it reads, into which each dataset is imported in place of the last. */
export interface ModelAgreement {
  server: { call: Call };
  db: Database;
  firstSeed: number;
  datasets: number;
  queries: number;
  /** Awaited after each import, before the queries: a standby's replay of it, where the service reads from one. */
  afterImport?: () => Promise<void>;
}

/** Datasets from seed `firstSeed` on, each with `queries` searches and gets, each answered by `server` as the model answers it. */
export async function expectModelAgreement({ server, db, firstSeed, datasets, queries, afterImport }: ModelAgreement): Promise<void> {
  let compared = 0;
  for (let seed = firstSeed; seed < firstSeed + datasets; seed++) {
    const dataset = randomDataset(seed);
    await db.query('TRUNCATE companies, persons, employees, credentials, credential_companies');
    await importRecords(db, dataset.records, 'US');
    await afterImport?.();
    const data = modelData(dataset.records, (phone) => e164Of.get(phone)!);

    for (let q = 0; q < queries; q++) {
      const credential = new Random(seed * 1000 + q).pick(dataset.credentials);
      const { body, model } = randomQuery(seed * 1000 + q, dataset);
      const res = await server.call('POST', '/v1/persons/search', { token: credential.token, body });
      const context = `seed ${seed}, query ${q}: ${JSON.stringify(body)} as [${[...credential.companies]}]`;
      expect(res.status, context).toBe(200);
      const { asOf, ...rest } = res.body;
      expect(rest, context).toEqual(modelSearch(data, credential.companies, model, asOf));
      compared++;
      // Its next page by cursor is the next page by offset (nothing changed in between).
      if (rest.pagination.next) {
        const { offset: _, ...filters } = body;
        const after = await server.call('POST', '/v1/persons/search', { token: credential.token, body: { ...filters, cursor: rest.pagination.next } });
        expect(after.status, `${context} next`).toBe(200);
        const { asOf: nextAsOf, ...nextPage } = after.body;
        const nextOffset = rest.pagination.offset + rest.pagination.limit;
        expect(nextPage, `${context} next`).toEqual(modelSearch(data, credential.companies, { ...model, offset: nextOffset }, nextAsOf));
      }

      const personId = new Random(seed * 7 + q).pick([...dataset.persons, '00000000-0000-4000-8000-000000000000']);
      const got = await server.call('GET', `/v1/persons/${personId}`, { token: credential.token });
      const expected = modelSearch(data, credential.companies, { personId }, got.body.asOf ?? new Date().toISOString());
      if (expected.persons.length === 0) expect(got.status, `${context} get ${personId}`).toBe(404);
      else expect(got.body.person, `${context} get ${personId}`).toEqual(expected.persons[0]);

      // Search employees: the unlinked records the same filters select (the created range on the employment).
      const employees = randomEmployeeQuery(seed * 3000 + q, dataset);
      const found = await server.call('POST', '/v1/employees/search', { token: credential.token, body: employees.body });
      const where = `seed ${seed}, query ${q}: employees ${JSON.stringify(employees.body)} as [${[...credential.companies]}]`;
      expect(found.status, where).toBe(200);
      const { asOf: employeesAsOf, ...page } = found.body;
      expect(page, where).toEqual(modelSearchEmployees(data, credential.companies, employees.model, employeesAsOf));
      if (page.pagination.next) {
        const { offset: _, ...filters } = employees.body;
        const after = await server.call('POST', '/v1/employees/search', { token: credential.token, body: { ...filters, cursor: page.pagination.next } });
        expect(after.status, `${where} next`).toBe(200);
        const { asOf: nextAsOf, ...nextPage } = after.body;
        const nextOffset = page.pagination.offset + page.pagination.limit;
        expect(nextPage, `${where} next`).toEqual(modelSearchEmployees(data, credential.companies, { ...employees.model, offset: nextOffset }, nextAsOf));
      }
    }
  }
  expect(compared).toBe(datasets * queries);
}
