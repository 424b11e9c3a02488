// LEAD: the typed client against the real server. Owned by the lead engineer (server/ is
// theirs): start the server in-process on a free port in beforeAll, create a credential,
// stop it in afterAll, and validate every response against the contract.
import { describe, it } from 'vitest';

describe('LEAD: typed client against the real server', () => {
  it.todo('hello: 200 for an authorized company, 400/401/403 with their typed codes');
  it.todo('hello: 429 rate_limited is retried after Retry-After, then succeeds or comes back typed');
  it.todo('drafts client (@lookup/client/drafts): searchPersons and getPerson where drafts are enabled');
  it.todo('default client in a sandbox-configured server: drafts answer 404 not_found');
});
