// Get person over real HTTP on each engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe.each(engines)('get person on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, records: smallDataset() });
  });
  afterAll(() => server?.close());
  const get = (path: string, token = tokens.both) => server.call('GET', path, { token });

  it('returns the person with every authorized employment, oldest first, never cached', async () => {
    const res = await get(`/v1/persons/${ids.emile}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.person.id).toBe(ids.emile);
    expect(res.body.person.employments.map((e: any) => e.id)).toEqual([ids.emileGlobex, ids.emileAcme]);
    expect(res.body.person).not.toHaveProperty('demographics');
    expect(Date.parse(res.body.asOf)).not.toBeNaN();
  });

  it('agrees with search on the same person', async () => {
    const got = await get(`/v1/persons/${ids.emile}`);
    const searched = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { personId: ids.emile } });
    expect(searched.body.persons[0]).toEqual(got.body.person);
  });

  it('narrows employments to the credential companies', async () => {
    const res = await get(`/v1/persons/${ids.emile}`, tokens.acme);
    expect(res.body.person.employments.map((e: any) => e.companyId)).toEqual(['acme-corp']);
  });

  it('selects external ids with a repeated externalIdSystems parameter', async () => {
    const acme = (body: any) => body.person.employments.find((e: any) => e.id === ids.emileAcme);
    expect(acme((await get(`/v1/persons/${ids.emile}?externalIdSystems=payroll`)).body).externalIds).toEqual([{ system: 'payroll', system_id: 'PR-1' }]);
    expect(acme((await get(`/v1/persons/${ids.emile}?externalIdSystems=payroll&externalIdSystems=hris`)).body).externalIds).toHaveLength(2);
    expect(acme((await get(`/v1/persons/${ids.emile}?externalIdSystems=nothing`)).body).externalIds).toEqual([]);
    expect((await get(`/v1/persons/${ids.emile}?externalIdSystems=`)).body.error).toBe('invalid_request');
  });

  it('answers 404 alike for an unknown person and one with no employment in an authorized company', async () => {
    const unknown = await get('/v1/persons/00000000-0000-4000-8000-000000000000');
    const elsewhere = await get(`/v1/persons/${ids.hidden}`);
    const noCompanies = await get(`/v1/persons/${ids.emile}`, tokens.none);
    for (const res of [unknown, elsewhere, noCompanies]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found' });
    }
  });

  it.each(['not-a-uuid', '3f0c2a7e9b1d4e558a2f6c1d7e9b0a11x', '%20'])('answers 400 invalid_person_id for %j', async (personId) => {
    const res = await get(`/v1/persons/${personId}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_person_id' });
  });
});
