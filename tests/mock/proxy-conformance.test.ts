// Issue 6: the real server's responses, judged by Prism rather than by our own validator.
// `prism proxy generated/openapi.full.yaml <server> --errors=false` forwards every request
// and reports any contract violation in an `sl-violations` header, each one located under
// "request" or "response". A response-side violation fails the test. Request-side ones
// are expected exactly for the requests that are bad on purpose, which shows the check is
// live; a deliberately broken responder shows that response-side ones are caught too.
//
// Behind the proxy, a pass-through switch (tests/helpers/upstreamSwitch.ts) picks the server by
// a header: development (drafts on), sandbox (drafts off) and one with a tiny rate limit,
// all three real, on one database. `npm run mock:conformance` runs this file alone.
import type { RequestListener } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractPaths, loadContract } from '../../server/contract.js';
import { encodeChangeCursor } from '../../server/domain/changeCursor.js';
import { ids, narrowCredentials, narrowTokens, smallDataset, tokens } from '../fixtures/small.js';
import { type PrismProxy, startPrismProxy, violationsOf } from '../helpers/prismProxy.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startUpstreamSwitch, upstreamHeader } from '../helpers/upstreamSwitch.js';

type Upstream = 'development' | 'sandbox' | 'limited' | 'broken';

interface Scenario {
  name: string;
  operationId: 'hello' | 'searchPersons' | 'getPerson' | 'searchEmployees' | 'listChanges';
  upstream?: Upstream;
  method: 'GET' | 'POST';
  path: string;
  /** A bearer token; null sends no Authorization header; a string with a space is sent as the whole header. */
  token?: string | null;
  contentType?: string;
  /** Sent as it is. Kept compact: Prism re-serializes JSON bodies before forwarding them. */
  body?: string;
  status: number;
  error?: string;
  /** Whether Prism must find the request itself at fault. */
  badRequest: boolean;
}

const json = (value: unknown) => JSON.stringify(value);
const hello = (companyId: string) => `/v1/companies/${companyId}/hello`;
const changes = (companyId: string, query = '') => `/v1/companies/${companyId}/changes${query}`;

const scenarios: Scenario[] = [
  // hello
  { name: 'greets an authorized company', operationId: 'hello', method: 'GET', path: hello('acme-corp'), status: 200, badRequest: false },
  {
    name: 'ignores a cache-busting query string',
    operationId: 'hello',
    method: 'GET',
    path: `${hello('globex')}?_=1700000000`,
    status: 200,
    badRequest: false,
  },
  { name: 'malformed company id', operationId: 'hello', method: 'GET', path: hello('-acme'), status: 400, error: 'invalid_company_id', badRequest: true },
  { name: 'no token', operationId: 'hello', method: 'GET', path: hello('acme-corp'), token: null, status: 401, error: 'invalid_api_key', badRequest: true },
  {
    name: 'another scheme',
    operationId: 'hello',
    method: 'GET',
    path: hello('acme-corp'),
    token: 'Basic dXNlcjpwYXNz',
    status: 401,
    error: 'invalid_api_key',
    badRequest: true,
  },
  // Prism checks that a bearer token is there, not that the server knows it.
  {
    name: 'unknown token',
    operationId: 'hello',
    method: 'GET',
    path: hello('acme-corp'),
    token: 'plk_not_a_real_token_at_all',
    status: 401,
    error: 'invalid_api_key',
    badRequest: false,
  },
  { name: 'company outside the credential', operationId: 'hello', method: 'GET', path: hello('secret-co'), status: 403, error: 'forbidden', badRequest: false },
  {
    name: 'well-formed company that does not exist',
    operationId: 'hello',
    method: 'GET',
    path: hello('no-such-co'),
    token: tokens.acme,
    status: 403,
    error: 'forbidden',
    badRequest: false,
  },

  // searchPersons
  {
    name: 'search with filters',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ companyId: 'acme-corp', firstName: 'émi', phone: '(415) 555-0132', externalIdSystems: ['payroll'] }),
    status: 200,
    badRequest: false,
  },
  {
    name: 'search, every person, paged',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ limit: 1, offset: 1 }),
    status: 200,
    badRequest: false,
  },
  {
    name: 'search past the end',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ lastName: 'dur', offset: 10 }),
    status: 200,
    badRequest: false,
  },
  {
    name: 'search by creation time',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ createdFrom: '2024-01-01T00:00:00Z', createdBefore: '2025-01-01T00:00:00+02:00' }),
    status: 200,
    badRequest: false,
  },
  {
    name: 'search with limit out of range',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ limit: 500 }),
    status: 400,
    error: 'invalid_request',
    badRequest: true,
  },
  {
    name: 'search with an unknown field',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ lastname: 'dur' }),
    status: 400,
    error: 'invalid_request',
    badRequest: true,
  },
  {
    name: 'search with an empty name',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ firstName: '' }),
    status: 400,
    error: 'invalid_request',
    badRequest: true,
  },
  {
    name: 'search with a bad date-time',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ createdFrom: 'yesterday' }),
    status: 400,
    error: 'invalid_request',
    badRequest: true,
  },
  // A credential of narrow field groups: its answers leave their keys out and say so; a
  // filter on a group it lacks is refused, which only the server can tell.
  {
    name: 'search as a credential of names and emails',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    token: narrowTokens.nameEmail,
    body: json({ lastName: 'dur' }),
    status: 200,
    badRequest: false,
  },
  {
    name: 'search by phone as a credential without phones',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    token: narrowTokens.nameEmail,
    body: json({ phone: '(415) 555-0132' }),
    status: 403,
    error: 'forbidden',
    badRequest: false,
  },
  {
    name: 'get a person with external ids as a credential without them',
    operationId: 'getPerson',
    method: 'GET',
    path: `/v1/persons/${ids.emile}?externalIdSystems=payroll`,
    token: narrowTokens.nameEmail,
    status: 403,
    error: 'forbidden',
    badRequest: false,
  },
  {
    name: 'search unlinked records by phone as a credential without phones',
    operationId: 'searchEmployees',
    method: 'POST',
    path: '/v1/employees/search',
    token: narrowTokens.nameEmail,
    body: json({ phone: '(415) 555-0132' }),
    status: 403,
    error: 'forbidden',
    badRequest: false,
  },
  // Only the server can tell: a string the contract allows, but not a phone number.
  {
    name: 'search with an unparseable phone',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ phone: 'not a phone' }),
    status: 400,
    error: 'invalid_request',
    badRequest: false,
  },
  {
    name: 'search with a body that is not an object',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json(['dur']),
    status: 400,
    error: 'invalid_request',
    badRequest: true,
  },
  {
    name: 'search without a token',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    token: null,
    body: json({}),
    status: 401,
    error: 'invalid_api_key',
    badRequest: true,
  },
  {
    name: 'search body over 16 KiB',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ lastName: 'x'.repeat(20_000) }),
    status: 413,
    error: 'payload_too_large',
    badRequest: true,
  },
  {
    name: 'search body as text/plain',
    operationId: 'searchPersons',
    method: 'POST',
    path: '/v1/persons/search',
    contentType: 'text/plain',
    body: 'lastName=dur',
    status: 415,
    error: 'unsupported_media_type',
    badRequest: true,
  },
  {
    name: 'search where drafts are off',
    operationId: 'searchPersons',
    upstream: 'sandbox',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ lastName: 'dur' }),
    status: 404,
    error: 'draft_unavailable',
    badRequest: false,
  },

  // searchEmployees
  {
    name: 'employees with filters',
    operationId: 'searchEmployees',
    method: 'POST',
    path: '/v1/employees/search',
    body: json({ companyId: 'acme-corp', lastName: 'dur', phone: '(415) 555-0132', externalIdSystems: ['payroll'] }),
    status: 200,
    badRequest: false,
  },
  {
    name: 'employees by creation time, past the end',
    operationId: 'searchEmployees',
    method: 'POST',
    path: '/v1/employees/search',
    body: json({ createdFrom: '2020-01-01T00:00:00Z', createdBefore: '2030-01-01T00:00:00+02:00', offset: 10 }),
    status: 200,
    badRequest: false,
  },
  {
    name: 'employees by person id, which they lack',
    operationId: 'searchEmployees',
    method: 'POST',
    path: '/v1/employees/search',
    body: json({ personId: ids.emile }),
    status: 400,
    error: 'invalid_request',
    badRequest: true,
  },
  {
    name: 'employees with an unparseable phone',
    operationId: 'searchEmployees',
    method: 'POST',
    path: '/v1/employees/search',
    body: json({ phone: 'not a phone' }),
    status: 400,
    error: 'invalid_request',
    badRequest: false,
  },
  {
    name: 'employees without a token',
    operationId: 'searchEmployees',
    method: 'POST',
    path: '/v1/employees/search',
    token: null,
    body: json({}),
    status: 401,
    error: 'invalid_api_key',
    badRequest: true,
  },
  {
    name: 'employees body over 16 KiB',
    operationId: 'searchEmployees',
    method: 'POST',
    path: '/v1/employees/search',
    body: json({ lastName: 'x'.repeat(20_000) }),
    status: 413,
    error: 'payload_too_large',
    badRequest: true,
  },
  {
    name: 'employees body as text/plain',
    operationId: 'searchEmployees',
    method: 'POST',
    path: '/v1/employees/search',
    contentType: 'text/plain',
    body: 'lastName=dur',
    status: 415,
    error: 'unsupported_media_type',
    badRequest: true,
  },
  {
    name: 'employees where drafts are off',
    operationId: 'searchEmployees',
    upstream: 'sandbox',
    method: 'POST',
    path: '/v1/employees/search',
    body: json({ lastName: 'dur' }),
    status: 404,
    error: 'draft_unavailable',
    badRequest: false,
  },

  // listChanges
  {
    name: 'changes from the oldest retained',
    operationId: 'listChanges',
    method: 'GET',
    path: changes('acme-corp', '?limit=2'),
    status: 200,
    badRequest: false,
  },
  {
    name: 'changes after a place',
    operationId: 'listChanges',
    method: 'GET',
    path: changes('globex', `?after=${encodeChangeCursor(3n)}`),
    status: 200,
    badRequest: false,
  },
  {
    name: 'changes of a malformed company id',
    operationId: 'listChanges',
    method: 'GET',
    path: changes('-acme'),
    status: 400,
    error: 'invalid_company_id',
    badRequest: true,
  },
  {
    name: 'changes with a limit out of range',
    operationId: 'listChanges',
    method: 'GET',
    path: changes('acme-corp', '?limit=1001'),
    status: 400,
    error: 'invalid_request',
    badRequest: true,
  },
  {
    name: 'changes after a cursor the service did not give',
    operationId: 'listChanges',
    method: 'GET',
    path: changes('acme-corp', '?after=abc'),
    status: 400,
    error: 'invalid_request',
    badRequest: false,
  },
  {
    name: 'changes without a token',
    operationId: 'listChanges',
    method: 'GET',
    path: changes('acme-corp'),
    token: null,
    status: 401,
    error: 'invalid_api_key',
    badRequest: true,
  },
  {
    name: 'changes of a company outside the credential',
    operationId: 'listChanges',
    method: 'GET',
    path: changes('secret-co'),
    status: 403,
    error: 'forbidden',
    badRequest: false,
  },
  {
    name: 'changes where drafts are off',
    operationId: 'listChanges',
    upstream: 'sandbox',
    method: 'GET',
    path: changes('acme-corp'),
    status: 404,
    error: 'draft_unavailable',
    badRequest: false,
  },
  // (beforeAll marks the feed pruned through position 1.)
  {
    name: 'changes after a pruned place',
    operationId: 'listChanges',
    method: 'GET',
    path: changes('acme-corp', `?after=${encodeChangeCursor(0n)}`),
    status: 410,
    error: 'resync_required',
    badRequest: false,
  },

  // getPerson
  { name: 'get a person', operationId: 'getPerson', method: 'GET', path: `/v1/persons/${ids.emile}`, status: 200, badRequest: false },
  {
    name: 'get a person, some external ids',
    operationId: 'getPerson',
    method: 'GET',
    path: `/v1/persons/${ids.emile}?externalIdSystems=payroll&externalIdSystems=hris`,
    status: 200,
    badRequest: false,
  },
  {
    name: 'get a person, narrowed to one company',
    operationId: 'getPerson',
    method: 'GET',
    path: `/v1/persons/${ids.ana}`,
    token: tokens.acme,
    status: 200,
    badRequest: false,
  },
  {
    name: 'person id that is not a UUID',
    operationId: 'getPerson',
    method: 'GET',
    path: '/v1/persons/not-a-uuid',
    status: 400,
    error: 'invalid_person_id',
    badRequest: true,
  },
  {
    name: 'external id system too long',
    operationId: 'getPerson',
    method: 'GET',
    path: `/v1/persons/${ids.emile}?externalIdSystems=${'x'.repeat(65)}`,
    status: 400,
    error: 'invalid_request',
    badRequest: true,
  },
  {
    name: 'empty external id system among others',
    operationId: 'getPerson',
    method: 'GET',
    path: `/v1/persons/${ids.emile}?externalIdSystems=payroll&externalIdSystems=`,
    status: 400,
    error: 'invalid_request',
    badRequest: true,
  },
  // Prism 5.14.2 reads a lone empty value as no value at all; the contract (minLength 1) and the server do not.
  {
    name: 'lone empty external id system',
    operationId: 'getPerson',
    method: 'GET',
    path: `/v1/persons/${ids.emile}?externalIdSystems=`,
    status: 400,
    error: 'invalid_request',
    badRequest: false,
  },
  {
    name: 'get a person without a token',
    operationId: 'getPerson',
    method: 'GET',
    path: `/v1/persons/${ids.emile}`,
    token: null,
    status: 401,
    error: 'invalid_api_key',
    badRequest: true,
  },
  {
    name: 'person outside the credential',
    operationId: 'getPerson',
    method: 'GET',
    path: `/v1/persons/${ids.hidden}`,
    status: 404,
    error: 'not_found',
    badRequest: false,
  },
  {
    name: 'unknown person',
    operationId: 'getPerson',
    method: 'GET',
    path: '/v1/persons/00000000-0000-4000-8000-000000000000',
    status: 404,
    error: 'not_found',
    badRequest: false,
  },
  {
    name: 'get a person where drafts are off',
    operationId: 'getPerson',
    upstream: 'sandbox',
    method: 'GET',
    path: `/v1/persons/${ids.emile}`,
    status: 404,
    error: 'draft_unavailable',
    badRequest: false,
  },
];

/** 429 for each operation: sent to the server that allows one request a second (and a burst of one). */
const rateLimited: Scenario[] = [
  {
    name: 'hello over budget',
    operationId: 'hello',
    upstream: 'limited',
    method: 'GET',
    path: hello('acme-corp'),
    status: 429,
    error: 'rate_limited',
    badRequest: false,
  },
  {
    name: 'search over budget',
    operationId: 'searchPersons',
    upstream: 'limited',
    method: 'POST',
    path: '/v1/persons/search',
    body: json({ lastName: 'dur' }),
    status: 429,
    error: 'rate_limited',
    badRequest: false,
  },
  {
    name: 'employees over budget',
    operationId: 'searchEmployees',
    upstream: 'limited',
    method: 'POST',
    path: '/v1/employees/search',
    body: json({ lastName: 'dur' }),
    status: 429,
    error: 'rate_limited',
    badRequest: false,
  },
  {
    name: 'changes over budget',
    operationId: 'listChanges',
    upstream: 'limited',
    method: 'GET',
    path: changes('acme-corp'),
    status: 429,
    error: 'rate_limited',
    badRequest: false,
  },
  {
    name: 'get person over budget',
    operationId: 'getPerson',
    upstream: 'limited',
    method: 'GET',
    path: `/v1/persons/${ids.emile}`,
    status: 429,
    error: 'rate_limited',
    badRequest: false,
  },
];

// Not driven here: 500 and 503 need a failing database (tests/operating/database-faults.test.ts injects those faults);
// 417 needs an Expect header other than 100-continue, which fetch refuses to send and Prism's
// own node:http would answer itself (tests/serving/http-conformance.test.ts sends it raw).
const notDriven = new Set([417, 500, 503]);

// Answers hello with a body the contract refuses: the proxy must report it.
const broken: RequestListener = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(json({ message: 42 }));
};

let development: TestServer;
let servers: TestServer[] = [];
let upstreams: Awaited<ReturnType<typeof startUpstreamSwitch>> | undefined;
let proxyStarted: Promise<PrismProxy> | undefined;
let proxy: PrismProxy | undefined;

beforeAll(async () => {
  // Prism takes seconds to start: start it first, and the servers meanwhile. The switch
  // reads its targets per request, so they can be filled in once the servers listen.
  const targets: Record<Upstream, string | RequestListener> = { development: '', sandbox: '', limited: '', broken };
  upstreams = await startUpstreamSwitch(targets, 'development');
  proxyStarted = startPrismProxy(contractPaths.full, upstreams.url);
  proxyStarted.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
  development = await startTestServer({ records: [...smallDataset(), ...narrowCredentials()] });
  // As housekeeping leaves a feed it pruned: a place at position 0 is then too old (410).
  await development.database.db.query('UPDATE change_feed_pruned SET through = 1');
  const [sandbox, limited] = await Promise.all([
    startTestServer({ database: development.database, env: { APP_ENV: 'sandbox' } }),
    startTestServer({ database: development.database, env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' } }),
  ]);
  servers = [sandbox, limited, development]; // development owns the database: closed last
  Object.assign(targets, { development: development.url, sandbox: sandbox.url, limited: limited.url });
  proxy = await proxyStarted;
}, 120_000);

afterAll(async () => {
  // Stopped even when something else in beforeAll failed while it was starting.
  await proxyStarted?.then(
    (started) => started.stop(),
    () => undefined,
  );
  await upstreams?.close();
  for (const server of servers) await server.close();
});

async function send(scenario: Scenario) {
  const headers: Record<string, string> = { [upstreamHeader]: scenario.upstream ?? 'development' };
  const token = scenario.token === undefined ? tokens.both : scenario.token;
  if (token !== null) headers.authorization = token.includes(' ') ? token : `Bearer ${token}`;
  if (scenario.body !== undefined) headers['content-type'] = scenario.contentType ?? 'application/json';
  const response = await fetch(proxy!.url + scenario.path, { method: scenario.method, headers, body: scenario.body });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the status or error expectation reports it
  }
  return { status: response.status, body, violations: violationsOf(response.headers) };
}

function expectConforming(scenario: Scenario, result: Awaited<ReturnType<typeof send>>) {
  const where = `${scenario.method} ${scenario.path} (${scenario.name}) → ${result.status} ${JSON.stringify(result.body).slice(0, 200)}`;
  expect(result.status, where).toBe(scenario.status);
  if (scenario.error) expect((result.body as { error?: string }).error, where).toBe(scenario.error);
  expect(result.violations.response, `${where}: Prism found the response in breach of the contract\n${proxy!.log.slice(-20).join('\n')}`).toEqual([]);
  if (scenario.badRequest) expect(result.violations.request.length, `${where}: Prism did not see this request as bad`).toBeGreaterThan(0);
  else expect(result.violations.request, `${where}: Prism found fault with a good request`).toEqual([]);
}

describe('the real server through prism proxy', () => {
  it('drives every operation to every status it can answer (417, 500, 503 aside)', () => {
    const driven = new Set([...scenarios, ...rateLimited].map((s) => `${s.operationId} ${s.status}`));
    const declared = loadContract()
      .router.getOperations()
      .flatMap((op) => Object.keys(op.responses ?? {}).map((status) => ({ op: op.operationId!, status: Number(status) })))
      .filter(({ status }) => !notDriven.has(status))
      .map(({ op, status }) => `${op} ${status}`);
    expect([...driven].sort()).toEqual(declared.sort());
  });

  it.each(scenarios)('$operationId $status: $name', async (scenario) => {
    expectConforming(scenario, await send(scenario));
  });

  it.each(rateLimited)('$operationId 429: $name', async (scenario) => {
    // A fresh one-second window, then requests until the budget is spent; every answer on
    // the way (200s included) must conform too.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const results = [];
    for (let i = 0; i < 10 && results.at(-1)?.status !== 429; i++) results.push(await send(scenario));
    for (const result of results.slice(0, -1)) expectConforming({ ...scenario, status: 200, error: undefined }, result);
    expectConforming(scenario, results.at(-1)!);
  });

  it('answers an unknown route with the service 404, which Prism flags as a route it does not know', async () => {
    const result = await send({ name: 'unknown route', operationId: 'hello', method: 'GET', path: '/v1/nowhere', status: 404, badRequest: true });
    expect(result).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(result.violations.request.map((v) => v.message)).toEqual(['Selected route not found']);
  });

  it('cannot judge the server on a body that is not JSON: Prism answers that one itself', async () => {
    // Prism parses JSON bodies before forwarding; the server's own 400 invalid_request for
    // this case is covered by tests/serving/requests.test.ts instead.
    const result = await send({
      name: 'malformed JSON',
      operationId: 'searchPersons',
      method: 'POST',
      path: '/v1/persons/search',
      body: '{"lastName":',
      status: 400,
      badRequest: true,
    });
    expect(result).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
  });

  it('reports response-side violations when an upstream breaks the contract (the check itself works)', async () => {
    const result = await send({
      name: 'broken upstream',
      operationId: 'hello',
      upstream: 'broken',
      method: 'GET',
      path: hello('acme-corp'),
      status: 200,
      badRequest: false,
    });
    expect(result.status).toBe(200);
    expect(result.violations.request).toEqual([]);
    expect(result.violations.response.map((v) => v.location.join('.'))).toContain('response.body.message');
  });
});
