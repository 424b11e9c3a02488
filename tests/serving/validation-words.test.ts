// invalid_request's details in words: for every operation's typical mistakes, each entry
// names its field and says what it must be, one entry per problem, and no regular
// expression ever leaves the service. Held on both validation paths: openapi-backend's
// validators compiled at start (tsx, the tests' servers) and the build's precompiled ones
// (scripts/prepareContract.ts, what `node dist/server/main.js` runs), then over HTTP for
// the problems found past the schemas (a phone, a value the database cannot hold, a body
// that is not JSON).
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareContract } from '../../scripts/prepareContract.js';
import { ApiError, type ErrorDetail, fieldName } from '../../server/errors.js';
import { validateRequest } from '../../server/http/validation.js';
import { FORMAT_WORDS, PATTERN_WORDS } from '../../server/http/validationWords.js';
import { loadServedContract, readPreparedContract, type ServedContract } from '../../server/servedContract.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const UUID = '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11';
const uuidWords = FORMAT_WORDS.uuid!;
const dateTimeWords = FORMAT_WORDS['date-time']!;
const companyWords = PATTERN_WORDS['^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$']!;
const cursorWords = PATTERN_WORDS['^[A-Za-z0-9_-]+$']!;

type Parts = { path?: Record<string, string>; query?: Record<string, string | string[]>; body?: unknown };
type Expected = ErrorDetail[] | 'invalid_person_id' | 'invalid_company_id';
const d = (path: string, message: string): ErrorDetail => ({ path, message });

/** Each operation's typical mistakes, and the answer each gets. */
const mistakes: Record<string, [string, Parts, Expected][]> = {
  searchPersons: [
    ['a misspelt field', { body: { lastname: 'dur' } }, [d('/body', 'lastname is not a field of this request: did you mean lastName?')]],
    ['an unknown field', { body: { surname: 'dur' } }, [d('/body', 'surname is not a field of this request')]],
    ['limit above 100', { body: { limit: 500 } }, [d('/body/limit', 'limit must be at most 100')]],
    ['limit 0', { body: { limit: 0 } }, [d('/body/limit', 'limit must be at least 1')]],
    ['a fractional limit', { body: { limit: 1.5 } }, [d('/body/limit', 'limit must be a whole number')]],
    ['offset -1', { body: { offset: -1 } }, [d('/body/offset', 'offset must be at least 0')]],
    ['a personId that is no UUID', { body: { personId: 'emile' } }, [d('/body/personId', `personId ${uuidWords}`)]],
    ['a personId as a URN', { body: { personId: `urn:uuid:${UUID}` } }, [d('/body/personId', `personId ${uuidWords}`)]],
    ['a date-time with a space', { body: { createdFrom: '2024-01-01 00:00:00Z' } }, [d('/body/createdFrom', `createdFrom ${dateTimeWords}`)]],
    ['a date-time without offset', { body: { createdBefore: '2024-01-01T00:00:00' } }, [d('/body/createdBefore', `createdBefore ${dateTimeWords}`)]],
    ['an empty name', { body: { firstName: '' } }, [d('/body/firstName', 'firstName must not be empty')]],
    ['a long name', { body: { lastName: 'x'.repeat(101) } }, [d('/body/lastName', 'lastName must be at most 100 characters long')]],
    ['a number for a name', { body: { lastName: 42 } }, [d('/body/lastName', 'lastName must be a string')]],
    ['a malformed companyId', { body: { companyId: 'a b' } }, [d('/body/companyId', `companyId ${companyWords}`)]],
    ['one system, not a list', { body: { externalIdSystems: 'payroll' } }, [d('/body/externalIdSystems', 'externalIdSystems must be an array of strings')]],
    ['an empty system', { body: { externalIdSystems: ['payroll', ''] } }, [d('/body/externalIdSystems/1', 'externalIdSystems[1] must not be empty')]],
    ['too many systems', { body: { externalIdSystems: Array(51).fill('s') } }, [d('/body/externalIdSystems', 'externalIdSystems must hold at most 50 items')]],
    ['an array body', { body: [] }, [d('/body', 'the request body must be a JSON object')]],
    ['no body', {}, [d('/body', 'the request body is required: a JSON object ({} for no filters)')]],
    [
      'a filter in the query string',
      { query: { limit: '5' }, body: {} },
      [d('/query', 'limit is not a query parameter of this request: send it in the JSON body')],
    ],
    [
      'several mistakes: one entry each',
      { body: { personId: 'nope', limit: 101, createdFrom: 'yesterday' } },
      [d('/body/personId', `personId ${uuidWords}`), d('/body/createdFrom', `createdFrom ${dateTimeWords}`), d('/body/limit', 'limit must be at most 100')],
    ],
    ['a cursor that is none', { body: { cursor: 'page 2' } }, [d('/body/cursor', `cursor ${cursorWords}`)]],
    ['an empty cursor', { body: { cursor: '' } }, [d('/body/cursor', 'cursor must not be empty')]],
    ['a name the database cannot hold', { body: { lastName: 'Dur\u0000' } }, [d('/body/lastName', 'lastName must not contain the character U+0000')]],
    [
      'an integer past 2^53',
      { body: { offset: 2 ** 60 } },
      [d('/body/offset', `offset must be between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`)],
    ],
  ],
  searchEmployees: [
    ['personId, which these records have not', { body: { personId: UUID } }, [d('/body', 'personId is not a field of this request')]],
    ['a misspelt field', { body: { LastName: 'dur' } }, [d('/body', 'LastName is not a field of this request: did you mean lastName?')]],
    [
      'an empty phone and limit 101',
      { body: { limit: 101, phone: '' } },
      [d('/body/phone', 'phone must not be empty'), d('/body/limit', 'limit must be at most 100')],
    ],
    ['a bound without its colon', { body: { createdFrom: '2026-01-01T00:00:00+0530' } }, [d('/body/createdFrom', `createdFrom ${dateTimeWords}`)]],
    ['a malformed companyId', { body: { companyId: '-acme' } }, [d('/body/companyId', `companyId ${companyWords}`)]],
  ],
  getPerson: [
    ['a personId that is no UUID', { path: { personId: 'emile' } }, 'invalid_person_id'],
    [
      'an empty system',
      { path: { personId: UUID }, query: { externalIdSystems: [''] } },
      [d('/query/externalIdSystems/0', 'externalIdSystems[0] must not be empty')],
    ],
    [
      'a misspelt query parameter',
      { path: { personId: UUID }, query: { externalIdsystems: 'payroll' } },
      [d('/query', 'externalIdsystems is not a query parameter of this request: did you mean externalIdSystems?')],
    ],
    ['an unknown query parameter', { path: { personId: UUID }, query: { fields: 'all' } }, [d('/query', 'fields is not a query parameter of this request')]],
  ],
  listChanges: [
    ['a malformed companyId', { path: { companyId: '-acme' } }, 'invalid_company_id'],
    ['a limit out of range', { path: { companyId: 'acme-corp' }, query: { limit: '1001' } }, [d('/query/limit', 'limit must be at most 1000')]],
    [
      'an after that is not of its form',
      { path: { companyId: 'acme-corp' }, query: { after: 'a*b' } },
      [d('/query/after', "after must be a change's position or a page's next from this feed, sent back as it came (up to 24 letters, digits, _ and -)")],
    ],
    [
      'an unknown query parameter',
      { path: { companyId: 'acme-corp' }, query: { since: '1' } },
      [d('/query', 'since is not a query parameter of this request')],
    ],
  ],
  hello: [
    ['a malformed companyId', { path: { companyId: '-acme' } }, 'invalid_company_id'],
    ['a companyId too long', { path: { companyId: 'x'.repeat(65) } }, 'invalid_company_id'],
  ],
};

/** What validateRequest answers: the details of its invalid_request, the code of another refusal, or 'valid'. */
function answer(api: ServedContract, operationId: string, parts: Parts): Expected | 'valid' {
  const operation = api.operations.find((o) => o.operationId === operationId)!;
  const { path = {}, query = {}, body } = structuredClone(parts);
  try {
    validateRequest(api, operation, { path, query, body, headers: { host: 'localhost' } });
    return 'valid';
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code !== 'invalid_request') return error.code as Expected;
    return error.body.details ?? [];
  }
}

/** Every pattern the operations' inputs hold, anywhere in their schemas. */
function requestPatterns(api: ServedContract): { pattern: string; format?: string }[] {
  const found: { pattern: string; format?: string }[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const schema = node as { pattern?: string; format?: string };
    if (typeof schema.pattern === 'string') found.push({ pattern: schema.pattern, format: schema.format });
    Object.values(node).forEach(walk);
  };
  for (const operation of api.operations) walk([operation.parameters, operation.requestBody]);
  return found;
}

describe.each([
  ['compiled at start (tsx)', 'source'],
  ['precompiled by the build', 'prepared'],
] as const)('details in words, validators %s', (_, kind) => {
  let dir: string | undefined;
  let api: ServedContract;
  beforeAll(async () => {
    if (kind === 'source') api = await loadServedContract(join(fileURLToPath(new URL('../../', import.meta.url)), 'no-prepared-contract'));
    else {
      // Inside the project, as in a build: the validators require ajv from node_modules.
      dir = mkdtempSync(join(fileURLToPath(new URL('../../', import.meta.url)), '.build-words-'));
      prepareContract(dir);
      api = readPreparedContract(dir);
    }
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('covers every operation', () => {
    expect(Object.keys(mistakes).sort()).toEqual(api.operations.map((o) => o.operationId).sort());
  });

  it.each(Object.entries(mistakes).flatMap(([operationId, cases]) => cases.map(([name, parts, expected]) => ({ operationId, name, parts, expected }))))(
    '$operationId: $name',
    ({ operationId, parts, expected }) => {
      expect(answer(api, operationId, parts)).toEqual(expected);
    },
  );

  it('every entry names its field first, and quotes no regular expression', () => {
    const patterns = requestPatterns(api).map((p) => p.pattern);
    expect(patterns.length).toBeGreaterThan(0);
    for (const [operationId, cases] of Object.entries(mistakes)) {
      for (const [name, parts] of cases) {
        const details = answer(api, operationId, parts);
        if (!Array.isArray(details)) continue;
        for (const { path, message } of details) {
          const subject = path === '/body' || path === '/query' ? /^(the request body|\S+ is not a (field|query parameter) of this request)/ : fieldName(path);
          expect(message, `${operationId}: ${name}`).toMatch(typeof subject === 'string' ? new RegExp(`^${subject.replace(/[[\]]/g, '\\$&')} `) : subject);
          for (const pattern of patterns) expect(message).not.toContain(pattern);
          expect(message, `${operationId}: ${name}`).not.toMatch(/\^|\$|\\[dws]|\[[^\]]*-[^\]]*\]|\{\d+(,\d*)?\}|must match|must NOT/);
        }
      }
    }
  });

  it('every pattern the operations take is said in words, by its format or on its own', () => {
    for (const { pattern, format } of requestPatterns(api)) {
      expect(Boolean((format && FORMAT_WORDS[format]) || PATTERN_WORDS[pattern]), pattern).toBe(true);
    }
  });
});

describe('details in words, over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ records: smallDataset() });
  });
  afterAll(() => server?.close());
  const post = (path: string, options: { body?: unknown; rawBody?: string }) =>
    server.call('POST', path, { token: tokens.both, ...options, ...(options.rawBody !== undefined && { headers: { 'content-type': 'application/json' } }) });

  it.each(['/v1/persons/search', '/v1/employees/search'])('%s: a phone that is none, a body that is not JSON, two mistakes at once', async (path) => {
    expect((await post(path, { body: { phone: 'call me' } })).body).toEqual({
      error: 'invalid_request',
      details: [d('/body/phone', 'phone must be a phone number, such as (415) 555-0132 or +44 20 7946 0958')],
    });
    expect((await post(path, { rawBody: '{"lastName": "dur"' })).body).toEqual({
      error: 'invalid_request',
      details: [d('/body', 'the request body is not valid JSON')],
    });
    expect((await post(path, { body: { lastname: 'dur', limit: 0 } })).body).toEqual({
      error: 'invalid_request',
      details: [d('/body', 'lastname is not a field of this request: did you mean lastName?'), d('/body/limit', 'limit must be at least 1')],
    });
  });

  it('get person: a query mistake in words, a malformed id its own code', async () => {
    const bad = await server.call('GET', `/v1/persons/${ids.emile}?externalIdSystems=`, { token: tokens.both });
    expect(bad.body).toEqual({ error: 'invalid_request', details: [d('/query/externalIdSystems/0', 'externalIdSystems[0] must not be empty')] });
    expect((await server.call('GET', '/v1/persons/emile', { token: tokens.both })).body).toEqual({ error: 'invalid_person_id' });
  });
});
