// The contract the build prepares (scripts/prepareContract.ts) is the one the server reads
// from source: the same operations, and validators that accept, reject, report and coerce
// exactly as openapi-backend's compiled at start do.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareContract } from '../../scripts/prepareContract.js';
import { loadServedContract, readPreparedContract, type ServedContract } from '../../server/servedContract.js';

const UUID = '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11';
const header = { host: 'localhost', authorization: 'Bearer x' };

// Inputs as the pipeline hands them over: { path, query, header, requestBody }.
const inputs: Record<string, object[]> = {
  hello: [
    { path: { companyId: 'acme-corp' }, query: {}, header },
    { path: { companyId: '-bad' }, query: {}, header },
    { path: { companyId: 'x'.repeat(65) }, query: {}, header },
  ],
  listChanges: [
    { path: { companyId: 'acme-corp' }, query: {}, header },
    { path: { companyId: 'acme-corp' }, query: { after: 'ZjJz', limit: '1000' }, header },
    { path: { companyId: 'acme-corp' }, query: { after: 'a*b', limit: '0' }, header },
  ],
  getPerson: [
    { path: { personId: UUID }, query: {}, header },
    { path: { personId: UUID }, query: { externalIdSystems: ['payroll', 'hris'] }, header },
    { path: { personId: 'not-a-uuid' }, query: {}, header },
    { path: { personId: UUID }, query: { unknown: 'x' }, header },
  ],
  searchPersons: [
    { path: {}, query: {}, header, requestBody: { lastName: 'dur', limit: 2 } },
    { path: {}, query: {}, header, requestBody: { createdFrom: '2024-01-01T00:00:00Z', createdBefore: 'yesterday' } },
    { path: {}, query: {}, header, requestBody: { limit: 0, offset: -1, lastName: '' } },
    { path: {}, query: {}, header, requestBody: { lastname: 'typo', companyId: 7 } },
    { path: {}, query: {}, header, requestBody: { personId: 'nope', externalIdSystems: 'payroll' } },
    { path: {}, query: { limit: '5' }, header, requestBody: {} },
    { path: {}, query: {}, header, requestBody: [] },
    { path: {}, query: {}, header },
  ],
  searchEmployees: [
    { path: {}, query: {}, header, requestBody: { lastName: 'dur', createdFrom: '2026-01-01T00:00:00Z', limit: 1 } },
    { path: {}, query: {}, header, requestBody: { personId: '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11' } },
    { path: {}, query: {}, header, requestBody: { limit: 101, phone: '' } },
    { path: {}, query: {}, header },
  ],
};

function outcome(api: ServedContract, operationId: string, input: object) {
  const copy = structuredClone(input);
  return api.requestValidators(operationId).map((validate) => ({ valid: validate(copy), errors: validate.errors ?? null, input: copy }));
}

describe('the prepared contract', () => {
  let dir: string;
  let fromSource: ServedContract;
  let prepared: ServedContract;
  beforeAll(async () => {
    // Inside the project, as in a build: the validators require ajv from node_modules.
    dir = mkdtempSync(join(fileURLToPath(new URL('../../', import.meta.url)), '.build-prepared-'));
    prepareContract(dir);
    fromSource = await loadServedContract(join(dir, 'absent'));
    prepared = readPreparedContract(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the same operations', () => {
    expect(prepared.operations).toEqual(JSON.parse(JSON.stringify(fromSource.operations)));
    expect(prepared.operations.map((o) => o.operationId).sort()).toEqual(Object.keys(inputs).sort());
  });

  it('validates every input exactly as the validators compiled at start', () => {
    for (const [operationId, cases] of Object.entries(inputs)) {
      for (const input of cases) {
        const expected = outcome(fromSource, operationId, input);
        expect(expected.length).toBeGreaterThan(0);
        expect(outcome(prepared, operationId, input), `${operationId} ${JSON.stringify(input)}`).toEqual(expected);
      }
    }
    // The cases above do reach both answers.
    const all = Object.entries(inputs).flatMap(([id, cases]) => cases.flatMap((input) => outcome(prepared, id, input)));
    expect(all.some((o) => o.valid)).toBe(true);
    expect(all.some((o) => !o.valid)).toBe(true);
  });
});
