// Authorization isolation over random datasets and credentials: no response of any
// operation ever holds an employment of a company the credential is not authorized for,
// a person seen through a credential has exactly their authorized employments, and a
// person who exists only in other companies is indistinguishable from one who does not
// exist at all (same status, same body; for search, the same body but for asOf).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { recordReadsEverything } from '../fixtures/credentials.js';
import { employee } from '../fixtures/small.js';
import type { CallResult } from '../helpers/call.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const RUNS = Number(process.env.HARDENING_AUTHZ_RUNS ?? 12);
const lastNames = ['Durand', 'Martin', 'Nguyen'];
const phones = ['+14155550100', '+14155550101', '(415) 555-0102'];

/** The shape of a dataset; concrete ids are minted per run so runs never collide. */
const datasetShape = fc.integer({ min: 1, max: 4 }).chain((companies) =>
  fc.record({
    companies: fc.constant(companies),
    persons: fc.array(
      fc.record({
        createdDay: fc.integer({ min: 0, max: 20 }),
        employments: fc.array(
          fc.record({ company: fc.nat(companies - 1), lastName: fc.nat(lastNames.length - 1), phone: fc.nat(phones.length - 1), createdDay: fc.nat(20) }),
          { maxLength: 3 },
        ),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    unlinked: fc.array(fc.record({ company: fc.nat(companies - 1), lastName: fc.nat(lastNames.length - 1) }), { maxLength: 2 }),
    credentials: fc.array(fc.record({ companies: fc.array(fc.boolean(), { minLength: companies, maxLength: companies }), alsoEmptyCompany: fc.boolean() }), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
);
type Shape = typeof datasetShape extends fc.Arbitrary<infer T> ? T : never;

interface World {
  records: ImportRecord[];
  companies: string[];
  persons: { id: string; employments: { id: string; companyId: string }[] }[];
  credentials: { token: string; companies: Set<string> }[];
}

let runCounter = 0;
function mint(shape: Shape): World {
  const run = `r${Date.now().toString(36)}${runCounter++}`;
  const companies = Array.from({ length: shape.companies }, (_, i) => `${run}-c${i}`);
  const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString();
  const records: ImportRecord[] = [...companies, `${run}-empty`].map((id) => ({ type: 'company', id, name: id }));
  const persons: World['persons'] = [];
  for (const p of shape.persons) {
    const person = { id: randomUUID(), employments: [] as { id: string; companyId: string }[] };
    records.push({ type: 'person', id: person.id, createdAt: day(p.createdDay), updatedAt: day(p.createdDay) });
    for (const e of p.employments) {
      const id = randomUUID();
      person.employments.push({ id, companyId: companies[e.company]! });
      records.push(
        employee({
          id,
          companyId: companies[e.company]!,
          personId: person.id,
          lastName: lastNames[e.lastName]!,
          phone: phones[e.phone]!,
          createdAt: day(e.createdDay),
        }),
      );
    }
    persons.push(person);
  }
  for (const u of shape.unlinked)
    records.push(employee({ id: randomUUID(), companyId: companies[u.company]!, personId: null, lastName: lastNames[u.lastName]! }));
  const credentials = shape.credentials.map((c, i) => {
    const granted = companies.filter((_, j) => c.companies[j]);
    // A credential may hold a company nobody works for: it must widen nothing.
    const named = c.alsoEmptyCompany ? [...granted, `${run}-empty`] : granted;
    const token = `plk_authz_${run}_${i}_${randomUUID().slice(0, 8)}`;
    records.push({ type: 'credential', name: `${run} ${i}`, token, companies: named, ...recordReadsEverything });
    return { token, companies: new Set(granted) };
  });
  return { records, companies, persons, credentials };
}

/** Every employment anywhere in a response body. */
function employmentsIn(body: any): { id: string; companyId: string; personId: string | null }[] {
  const persons = body?.persons ?? (body?.person ? [body.person] : []);
  return persons.flatMap((p: any) => p.employments);
}

const withoutAsOf = (res: CallResult) => ({ status: res.status, body: { ...res.body, asOf: undefined } });
const headerNames = (res: CallResult) => [...res.headers.keys()].filter((h) => !['date', 'x-request-id'].includes(h) && !h.startsWith('ratelimit-')).sort();

describe.each(engines)('authorization isolation on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(() => server?.close());

  it(`holds for ${RUNS} random datasets and credentials`, async () => {
    await fc.assert(
      fc.asyncProperty(datasetShape, fc.uuid(), async (shape, unknownId) => {
        const world = mint(shape);
        await importRecords(server.database.db, world.records, 'US');
        for (const credential of world.credentials) {
          const call = (method: string, path: string, body?: unknown) => server.call(method, path, { token: credential.token, body });
          const authorized = (e: { companyId: string }) => credential.companies.has(e.companyId);
          const visible = world.persons.filter((p) => p.employments.some(authorized));
          const invisible = world.persons.filter((p) => !p.employments.some(authorized));
          const responses: CallResult[] = [];

          // Listing everything the credential can see: exactly the visible people, each
          // with exactly their authorized employments.
          const all = await call('POST', '/v1/persons/search', { limit: 100 });
          responses.push(all);
          expect(all.status).toBe(200);
          expect(all.body.pagination.total).toBe(visible.length);
          expect(new Set(all.body.persons.map((p: any) => p.id))).toEqual(new Set(visible.map((p) => p.id)));
          for (const person of visible) {
            const shown = all.body.persons.find((p: any) => p.id === person.id);
            expect(new Set(shown.employments.map((e: any) => e.id))).toEqual(new Set(person.employments.filter(authorized).map((e) => e.id)));
          }

          // Filters and pages, each in and out of the credential's companies.
          for (const body of [
            ...lastNames.map((lastName) => ({ lastName })),
            ...phones.map((phone) => ({ phone })),
            ...world.companies.map((companyId) => ({ companyId, lastName: lastNames[0] })),
            { limit: 1, offset: 1 },
          ]) {
            responses.push(await call('POST', '/v1/persons/search', body));
          }

          for (const person of visible) {
            const res = await call('GET', `/v1/persons/${person.id}`);
            expect(res.status).toBe(200);
            responses.push(res);
          }

          // Existing elsewhere vs not existing at all: nothing tells them apart.
          const missingGet = await call('GET', `/v1/persons/${unknownId}`);
          const missingSearch = await call('POST', '/v1/persons/search', { personId: unknownId });
          expect(missingGet.status).toBe(404);
          for (const person of invisible) {
            const get = await call('GET', `/v1/persons/${person.id}`);
            expect({ status: get.status, body: get.body }).toEqual({ status: missingGet.status, body: missingGet.body });
            expect(headerNames(get)).toEqual(headerNames(missingGet));
            const search = await call('POST', '/v1/persons/search', { personId: person.id });
            expect(withoutAsOf(search)).toEqual(withoutAsOf(missingSearch));
            expect(headerNames(search)).toEqual(headerNames(missingSearch));
          }

          // Hello: authorized companies only; a foreign company looks like a missing one.
          const missingCompany = await call('GET', `/v1/companies/${world.companies[0]}-nowhere/hello`);
          for (const companyId of world.companies) {
            const res = await call('GET', `/v1/companies/${companyId}/hello`);
            if (credential.companies.has(companyId)) expect(res.status).toBe(200);
            else expect({ status: res.status, body: res.body }).toEqual({ status: missingCompany.status, body: missingCompany.body });
          }

          for (const res of responses) {
            for (const e of employmentsIn(res.body)) expect(credential.companies.has(e.companyId), `employment ${e.id} of ${e.companyId} shown`).toBe(true);
          }
        }
      }),
      { numRuns: RUNS },
    );
  }, 240_000);
});
