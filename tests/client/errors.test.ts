// What a failed call gives a consumer, against a local server that answers as the service
// does and as things in front of it do (a proxy's HTML 502, an empty 504, JSON of another
// shape): the non-throwing form's `error` is always one the type admits, and `unwrap` throws
// a LookupApiError with the status, the code, the details, Retry-After and the request id.

import { describe, expect, it } from 'vitest';
import { createLookupDraftsClient } from '../../client/src/drafts.js';
import { createLookupClient, LookupApiError, unwrap } from '../../client/src/index.js';
import type { Handler } from '../helpers/localServer.js';
import { drop, helloAcme as hello, json, helloAcmeOk as ok, useLocalServer } from '../helpers/localServer.js';

const server = useLocalServer();
const client = () => createLookupClient({ baseUrl: server.url, token: 't', retry: false });
const callHello = () => client().GET('/v1/companies/{companyId}/hello', hello);
const text =
  (status: number, body: string, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html', ...headers }).end(body);
  };

/** The LookupApiError `unwrap` throws for the scripted answer. */
async function thrown(): Promise<LookupApiError> {
  const error = await unwrap(callHello()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LookupApiError);
  return error as LookupApiError;
}

describe('the service’s own failures', () => {
  it('come back as the typed body, and unwrap throws them with status, code and request id', async () => {
    server.script(json(403, { error: 'forbidden' }, { 'X-Request-Id': 'req-403' }));
    const { data, error, response } = await callHello();
    expect(data).toBeUndefined();
    expect(error).toEqual({ error: 'forbidden' });
    expect(response.status).toBe(403);

    const e = await thrown();
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: 'LookupApiError', status: 403, code: 'forbidden', requestId: 'req-403', details: undefined, retryAfter: undefined });
    expect(e.body).toEqual({ error: 'forbidden' });
    expect(e.response.status).toBe(403);
    expect(e.message).toBe('403 forbidden (request req-403)');
    expect(e.stack).toMatch(/LookupApiError/);
  });

  it('carry Retry-After in seconds (a wait longer than the client takes is returned at once)', async () => {
    server.script(json(429, { error: 'rate_limited' }, { 'Retry-After': '60', 'X-Request-Id': 'req-429' }));
    expect(await thrown()).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 60, requestId: 'req-429' });
    server.script(json(503, { error: 'service_unavailable' }, { 'Retry-After': new Date(Date.now() + 30_500).toUTCString() }));
    const e = await thrown();
    expect(e.code).toBe('service_unavailable');
    expect(e.retryAfter).toBeGreaterThanOrEqual(29);
    expect(e.retryAfter).toBeLessThanOrEqual(31);
  });

  it('carry invalid_request’s details, said in the message too', async () => {
    const details = [{ path: '/body', message: "must NOT have additional property 'lastname'" }];
    server.script(json(400, { error: 'invalid_request', details }, { 'X-Request-Id': 'req-400' }));
    const drafts = createLookupDraftsClient({ baseUrl: server.url, token: 't' });
    const { error } = await drafts.POST('/v1/persons/search', { body: {} });
    expect(error).toEqual({ error: 'invalid_request', details });
    const e = (await unwrap(drafts.POST('/v1/persons/search', { body: {} })).catch((e: unknown) => e)) as LookupApiError;
    expect(e).toMatchObject({ status: 400, code: 'invalid_request', details });
    expect(e.message).toBe("400 invalid_request: /body must NOT have additional property 'lastname' (request req-400)");
  });
});

describe('answers that are not the contract’s', () => {
  it.each([
    ['an HTML 502 from a proxy', text(502, '<html><body>Bad Gateway</body></html>'), 502, '<html><body>Bad Gateway</body></html>'],
    ['an empty 504', text(504, '', { 'content-length': '0' }), 504, ''],
    ['JSON of another shape', json(502, { message: 'upstream timed out' }), 502, { message: 'upstream timed out' }],
    ['a JSON string', json(500, 'oops'), 500, 'oops'],
    ['an error code hello never answers (a base URL that reaches another service)', json(404, { error: 'not_found' }), 404, { error: 'not_found' }],
    ['a code the service does not have', json(400, { error: 'bad_thing' }), 400, { error: 'bad_thing' }],
    ['details of another shape', json(400, { error: 'invalid_request', details: 'limit' }), 400, { error: 'invalid_request', details: 'limit' }],
  ])('%s: error is unexpected_response with what came, and unwrap throws it', async (_, answer, status, body) => {
    server.script(answer);
    const { data, error, response } = await callHello();
    expect(data).toBeUndefined();
    expect(error).toEqual({ error: 'unexpected_response', body });
    expect(response.status).toBe(status);
    const e = await thrown();
    expect(e).toMatchObject({ status, code: 'unexpected_response', body: { error: 'unexpected_response', body } });
    expect(e.message).toMatch(new RegExp(`^${status} unexpected_response`));
  });
});

describe('unwrap', () => {
  it('resolves to the data of a success', async () => {
    server.script(ok);
    await expect(unwrap(callHello())).resolves.toEqual({ message: 'Hello, acme-corp!' });
  });

  it('rejects with the network error itself when nothing answered', async () => {
    server.script(drop);
    const error = await unwrap(callHello()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(LookupApiError);
  });
});
