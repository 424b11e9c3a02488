// Reference: the person and employee queries bare, on the database the service opens with the
// same environment (loadConfig). Over HTTP, the floor: the hello references' bearer check, the
// service's own filter and query, its response JSON; no validation, limits, audit or metrics.
// On POST /direct, direct SQL: the query alone at the load's concurrency, answered after the run.
import { createServer, type ServerResponse } from 'node:http';
import { loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { findEmployees, findPersons } from '../../server/db/reads/queries.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import type { Credential } from '../../server/domain/credentials.js';
import { employeeSearchFilter, type SearchEmployeesRequest } from '../../server/domain/employees.js';
import { withheldGroups } from '../../server/domain/fieldGroups.js';
import { type PersonFilter, type SearchRequest, searchFilter } from '../../server/domain/persons.js';
import { hashToken, hashTokenBase64 } from '../../server/domain/tokens.js';
import { getPersonResponseJson, searchResponseJson } from '../../server/operations/responses.js';
import type { Measured } from '../loadHttp.js';
import type { EmployeeAsk } from '../scenarios.js';
import { percentile } from '../stats.js';
import { bearerTokenHash, HELLO_PATH } from './bearer.js';

export interface DirectRun {
  /** Complete filters, as the service derives them for the credential (scenarios.ts). */
  filters: (PersonFilter | EmployeeAsk)[];
  concurrency: number;
  durationMs: number;
}
export type DirectResult = Pick<Measured, 'requests' | 'errors' | 'seconds' | 'p50' | 'p99' | 'firstError'>;

const PERSON = /^\/v1\/persons\/([0-9a-f-]{36})$/;
const NOT_FOUND: [number, string] = [404, '{"error":"not_found"}'];

const config = loadConfig(process.env);
const db = await openDatabase(config);
const byHash = new Map<string, Credential>();
for (const { token } of JSON.parse(process.env.BENCH_CREDENTIALS ?? '[]') as { token: string }[]) {
  const credential = await findActiveCredential(db, hashToken(token));
  if (credential) byHash.set(hashTokenBase64(token), credential);
}

async function direct(body: string): Promise<[number, string]> {
  const { filters, concurrency, durationMs } = JSON.parse(body) as DirectRun;
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const caller = async () => {
    while (performance.now() < started + durationMs) {
      const filter = filters[next++ % filters.length]!;
      const t = performance.now();
      try {
        await ('employees' in filter ? findEmployees(db, filter) : findPersons(db, filter));
        latencies.push(performance.now() - t);
      } catch (error) {
        errors++;
        firstError ??= String((error as Error)?.message ?? error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  const seconds = (performance.now() - started) / 1000;
  const result: DirectResult = { requests: latencies.length, errors, seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), firstError };
  return [200, JSON.stringify(result)];
}

async function answer(credential: Credential, method: string | undefined, url: string, body: string): Promise<[number, string]> {
  const hello = method === 'GET' ? HELLO_PATH.exec(url) : null;
  if (hello) return [200, JSON.stringify({ message: `Hello, ${hello[1]}!` })];
  const person = method === 'GET' ? PERSON.exec(url) : null;
  if (person) {
    const page = await findPersons(db, searchFilter({ personId: person[1]!, limit: 1, offset: 0 }, credential, config));
    const [found] = page.items;
    return found ? [200, getPersonResponseJson(page.asOf, found.json, withheldGroups(credential.fields))] : NOT_FOUND;
  }
  if (method === 'POST' && url === '/v1/persons/search') {
    const filter = searchFilter(JSON.parse(body) as SearchRequest, credential, config);
    return [200, searchResponseJson('persons', await findPersons(db, filter), filter, withheldGroups(credential.fields))];
  }
  if (method === 'POST' && url === '/v1/employees/search') {
    const filter = employeeSearchFilter(JSON.parse(body) as SearchEmployeesRequest, credential, config);
    return [200, searchResponseJson('employees', await findEmployees(db, filter), filter, withheldGroups(credential.fields))];
  }
  return NOT_FOUND;
}

const send = (res: ServerResponse, [status, json]: [number, string]) => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
};
const reply = (res: ServerResponse, answered: Promise<[number, string]>) =>
  answered.then(
    (answer) => send(res, answer),
    (error: Error) => send(res, [500, JSON.stringify({ error: 'internal_error', message: error.message })]),
  );

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    // The bench's own call, on loopback: no bearer.
    if (req.method === 'POST' && req.url === '/direct') return reply(res, direct(body));
    const hash = bearerTokenHash(req.headers.authorization);
    const credential = hash === undefined ? undefined : byHash.get(hash);
    if (!credential) return send(res, [401, '{"error":"invalid_api_key"}']);
    reply(res, answer(credential, req.method, req.url ?? '', body));
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
