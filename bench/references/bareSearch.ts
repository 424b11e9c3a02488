// Reference: the person operations and Search employees on a bare node:http handler, the floor of any HTTP
// service in front of the person query on this machine: the bearer check of the hello
// references, the body parsed, the service's own filter (searchFilter) and findPersons,
// the page's JSON around the people's text. No validation, rate limit, access audit,
// deadline or metrics: what the service adds over it is the service's own cost.
// Opens the database the service would open with the same environment (loadConfig), and
// the credentials of BENCH_CREDENTIALS as the service holds them.
import { createServer, type ServerResponse } from 'node:http';
import { loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { SqlEmployeeQueries } from '../../server/db/persons/employeeQueries.js';
import { findPersons, pageOf } from '../../server/db/persons/persons.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import type { Credential } from '../../server/domain/credentials.js';
import { employeeSearchFilter, type SearchEmployeesRequest } from '../../server/domain/employees.js';
import { type SearchRequest, searchFilter } from '../../server/domain/persons.js';
import { hashToken, hashTokenBase64 } from '../../server/domain/tokens.js';
import { getPersonResponseJson, searchPersonsResponseJson } from '../../server/operations/personResponses.js';
import { searchEmployeesResponseJson } from '../../server/operations/searchEmployees.js';
import { bearerTokenHash, HELLO_PATH } from './bearer.js';

const PERSON = /^\/v1\/persons\/([0-9a-f-]{36})$/;

const config = loadConfig(process.env);
const db = await openDatabase(config);
const employees = new SqlEmployeeQueries(db);
const byHash = new Map<string, Credential>();
for (const { token } of JSON.parse(process.env.BENCH_CREDENTIALS ?? '[]') as { token: string }[]) {
  const credential = await findActiveCredential(db, hashToken(token));
  if (credential) byHash.set(hashTokenBase64(token), credential);
}

const send = (res: ServerResponse, status: number, json: string) => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
};

async function answer(credential: Credential, method: string | undefined, url: string, body: string): Promise<[number, string]> {
  const hello = method === 'GET' ? HELLO_PATH.exec(url) : null;
  if (hello) return [200, JSON.stringify({ message: `Hello, ${hello[1]}!` })];
  const person = method === 'GET' ? PERSON.exec(url) : null;
  if (person) {
    const page = pageOf(await findPersons(db, searchFilter({ personId: person[1]!, limit: 1, offset: 0 }, credential, config)));
    const [found] = page.persons;
    return found ? [200, getPersonResponseJson(page.asOf, found.json)] : [404, '{"error":"not_found"}'];
  }
  if (method === 'POST' && url === '/v1/persons/search') {
    const filter = searchFilter(JSON.parse(body) as SearchRequest, credential, config);
    return [200, searchPersonsResponseJson(pageOf(await findPersons(db, filter)), filter)];
  }
  if (method === 'POST' && url === '/v1/employees/search') {
    const filter = employeeSearchFilter(JSON.parse(body) as SearchEmployeesRequest, credential, config);
    return [200, searchEmployeesResponseJson(await employees.findPage(filter), filter)];
  }
  return [404, '{"error":"not_found"}'];
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const hash = bearerTokenHash(req.headers.authorization);
    const credential = hash === undefined ? undefined : byHash.get(hash);
    if (!credential) return send(res, 401, '{"error":"invalid_api_key"}');
    answer(credential, req.method, req.url ?? '', Buffer.concat(chunks).toString()).then(
      ([status, json]) => send(res, status, json),
      () => send(res, 500, '{"error":"internal_error"}'),
    );
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
