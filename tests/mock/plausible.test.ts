// The dynamic mock (`npm run mock -- --dynamic`) gives frontend teams data that looks like the
// real thing, not only data that passes the schema: a few hundred random responses (Prism
// without a seed, so every one differs) checked for names, emails, addresses, dates in order,
// a recent `asOf`, small Retry-After and rate-limit values, and bounded pagination. What makes
// them so is in the contract: formats, bounds and `x-faker` hints on the schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.full.js';
import { type MockServer, startPrism } from '../../mock/prism.js';
import { loadContract } from '../../server/contract.js';
import { expectConforms } from '../helpers/contractByOperation.js';

type Person = components['schemas']['Person'];
type Employee = components['schemas']['Employee'];

const api = loadContract();
let mock: MockServer;
beforeAll(async () => {
  mock = await startPrism({ port: 0, extraArgs: ['--dynamic'] }); // no --seed: a new body every time
});
afterAll(() => mock?.stop());

const DAY = 86_400_000;
const headers = { authorization: 'Bearer any-token', 'content-type': 'application/json' };
const call = async (operationId: string, path: string, init: RequestInit = {}) => {
  const response = await fetch(`${mock.url}${path}`, { ...init, headers: { ...headers, ...init.headers } });
  const body = await response.json();
  expectConforms(api, operationId, response, body);
  return { response, body };
};

const time = (iso: string) => Date.parse(iso);
const NAME = /^\p{Lu}[\p{L}'’ .-]*$/u; // a capital first, no lorem ipsum ("dolore")
const PLACE = /^\p{Lu}[\p{L}'’ .()/-]*$/u; // faker's cities include "Louisville/Jefferson County"
const EMAIL = /^[^\s@]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i;

/** Everything a reader of this employment would find odd, as messages (none: plausible). */
function oddities(employee: Employee, asOf: number): string[] {
  const odd: string[] = [];
  const check = (ok: boolean, what: string) => ok || odd.push(`${what}: ${JSON.stringify(employee)}`);
  // A full credential's answer: every field group present (the mock withholds none).
  const { demographics, contact: given, membership, coverage, participation } = employee as Required<Employee>;
  const who = demographics as Required<Employee['demographics']>;
  const contact = given as Required<Employee['contact']>;
  check(NAME.test(who.firstName) && NAME.test(who.lastName), 'names');
  const age = (asOf - time(who.dateOfBirth)) / (365.25 * DAY);
  check(age >= 16 && age <= 100, 'age');
  check(who.gender === null || /^[a-z-]{3,20}$/.test(who.gender), 'gender');
  check(EMAIL.test(contact.email), 'email');
  check(/\d/.test(contact.address.line1) && /\p{L}{2}/u.test(contact.address.line1), 'street');
  check(/^[a-z0-9]+(-[a-z0-9]+)*$/.test(employee.companyId), 'company id');
  check(PLACE.test(contact.address.city) && /^[A-Z]{2}$/.test(contact.address.state) && /^\d{5}$/.test(contact.address.postalCode), 'city, state, zip');
  check(time(employee.createdAt) >= Date.UTC(2000, 0) && time(employee.updatedAt) >= time(employee.createdAt), 'created <= updated');
  check(time(employee.updatedAt) <= asOf, 'updated <= asOf');
  if (membership.invitation) check(time(membership.invitation.invitedAt) < time(membership.invitation.expiresAt), 'invited < expires');
  if (coverage?.endsAt) check(time(coverage.startsAt) < time(coverage.endsAt), 'coverage starts < ends');
  if (participation?.decidedAt) check(time(participation.decidedAt) <= asOf, 'decided <= asOf');
  for (const id of employee.externalIds!) check(/^[a-z]+$/.test(id.system) && /^[A-Z0-9][A-Z0-9-]{2,}$/.test(id.system_id), 'external id');
  return odd;
}

function personOddities(person: Person, asOf: number): string[] {
  const odd = person.employments.flatMap((employee) => oddities(employee, asOf));
  if (person.employments.length === 0) odd.push(`a person without employments: ${person.id}`);
  for (const employee of person.employments) if (employee.personId !== person.id) odd.push(`an employment of ${person.id} linked to ${employee.personId}`);
  if (!(time(person.createdAt) >= Date.UTC(2000, 0) && time(person.updatedAt) >= time(person.createdAt) && time(person.updatedAt) <= asOf)) {
    odd.push(`person times: ${person.createdAt} ${person.updatedAt} (asOf ${new Date(asOf).toISOString()})`);
  }
  return odd;
}

/** What makes a generated page disagree with itself: 1..limit items, offset on a page boundary, a total that counts them. */
function pageOddities(items: unknown[], pagination: { limit: number; offset: number; total: number; next: string | null }): string[] {
  const { limit, offset, total, next } = pagination;
  const odd: string[] = [];
  const check = (ok: boolean, what: string) => ok || odd.push(`${what}: ${items.length} items, ${JSON.stringify(pagination)}`);
  check(items.length >= 1 && items.length <= limit, '1..limit items');
  check(offset % limit === 0, 'offset on a page boundary');
  check(total >= offset + items.length, 'total counts the page');
  check(items.length === limit || total === offset + items.length, 'a short page is the last');
  check((next === null) === (total === offset + items.length), 'a next cursor exactly where more follow');
  return odd;
}

function expectRecent(asOf: string) {
  const age = Date.now() - time(asOf);
  expect(age, `asOf ${asOf}`).toBeGreaterThanOrEqual(-DAY);
  expect(age, `asOf ${asOf}`).toBeLessThanOrEqual(3 * DAY);
}

describe('dynamic mock data is plausible', () => {
  it('search persons: 100 pages of people that look real, with bounded pagination', async () => {
    const odd: string[] = [];
    let employments = 0;
    const pageSizes = new Set<number>();
    let pagesWithNext = 0;
    // A page followed by more needs a full page (a drawn limit of 3 or 5) and a drawn cursor,
    // so 100 pages can miss it by chance: keep drawing until one comes, within reason.
    let pages = 0;
    for (; pages < 100 || (pagesWithNext === 0 && pages < 1_000); pages++) {
      const { body } = await call('searchPersons', '/v1/persons/search', { method: 'POST', body: '{}' });
      expectRecent(body.asOf);
      const { limit, offset, total } = body.pagination;
      expect(limit).toBeGreaterThanOrEqual(1);
      expect(limit).toBeLessThanOrEqual(100);
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThanOrEqual(10_000);
      expect(total).toBeGreaterThanOrEqual(0);
      expect(total).toBeLessThanOrEqual(10_000);
      odd.push(...pageOddities(body.persons, body.pagination));
      if (body.withheld !== undefined) odd.push(`withheld ${body.withheld} though every field is there`);
      pageSizes.add(body.persons.length);
      if (body.pagination.next !== null) pagesWithNext++;
      for (const person of body.persons as Person[]) {
        employments += person.employments.length;
        odd.push(...personOddities(person, time(body.asOf)));
      }
    }
    expect(employments, 'employments seen').toBeGreaterThan(50);
    expect(odd).toEqual([]);
    expect(pageSizes.size, 'pages of several sizes').toBeGreaterThan(2);
    expect(pagesWithNext, 'pages followed by more').toBeGreaterThan(0);
    expect(pagesWithNext, 'last pages').toBeLessThan(pages);
  });

  it('search employees: 50 pages of unlinked records that look real, their pagination counting them', async () => {
    const odd: string[] = [];
    for (let i = 0; i < 50; i++) {
      const { body } = await call('searchEmployees', '/v1/employees/search', { method: 'POST', body: '{}' });
      expectRecent(body.asOf);
      odd.push(...pageOddities(body.employees, body.pagination));
      for (const employee of body.employees as Employee[]) {
        if (employee.personId !== null) odd.push(`an unlinked record with a person: ${employee.personId}`);
        odd.push(...oddities(employee, time(body.asOf)));
      }
    }
    expect(odd).toEqual([]);
  });

  it('get person: 100 people that look real', async () => {
    const odd: string[] = [];
    for (let i = 0; i < 100; i++) {
      const { body } = await call('getPerson', '/v1/persons/3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11');
      expectRecent(body.asOf);
      odd.push(...personOddities(body.person, time(body.asOf)));
    }
    expect(odd).toEqual([]);
  });

  it('hello and its errors: a greeting, small Retry-After and rate-limit headers, a request id', async () => {
    for (let i = 0; i < 25; i++) {
      const ok = await call('hello', '/v1/companies/acme-corp/hello');
      expect(ok.body.message).toMatch(/^Hello, \S.*!$/);
      for (const status of [429, 503]) {
        const { response } = await call('hello', '/v1/companies/acme-corp/hello', { headers: { Prefer: `code=${status}` } });
        expect(response.status).toBe(status);
        const retryAfter = Number(response.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
      const limited = await call('hello', '/v1/companies/acme-corp/hello', { headers: { Prefer: 'code=429' } });
      const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((name) => Number(limited.response.headers.get(`ratelimit-${name}`)));
      expect(limit).toBeGreaterThanOrEqual(1);
      expect(limit).toBeLessThanOrEqual(1000);
      expect(remaining).toBeLessThanOrEqual(limit!);
      expect(reset).toBeLessThanOrEqual(60);
      expect(limited.response.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    }
  });

  it('the page checks can fail: the page Prism gave before, no one on it and a total of 241', () => {
    expect(pageOddities([], { limit: 50, offset: 0, total: 241, next: null }).map((m) => m.split(':')[0])).toEqual([
      '1..limit items',
      'a short page is the last',
      'a next cursor exactly where more follow',
    ]);
    expect(pageOddities([1, 2, 3], { limit: 2, offset: 7, total: 4, next: 'abc' }).map((m) => m.split(':')[0])).toEqual([
      '1..limit items',
      'offset on a page boundary',
      'total counts the page',
      'a short page is the last',
    ]);
  });

  it('the checks can fail: the data Prism gave before the contract had its hints is refused', () => {
    const asOf = Date.parse('1899-03-01T00:00:00Z');
    const lorem: Employee = {
      id: '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11',
      companyId: 'acme-corp',
      personId: '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11',
      externalIds: [],
      demographics: { firstName: 'dolore', lastName: 'aliqua', dateOfBirth: '1890-01-01', gender: null },
      contact: { email: 'aliqua', phone: '+14155550132', address: { line1: 'in', line2: null, city: 'esse', state: 'do', postalCode: 'x' } },
      membership: { status: 'not_invited', invitation: null },
      participation: null,
      coverage: null,
      createdAt: '1950-01-01T00:00:00Z',
      updatedAt: '1920-01-01T00:00:00Z',
    };
    expect(oddities(lorem, asOf).map((message) => message.split(':')[0])).toEqual([
      'names',
      'age',
      'email',
      'street',
      'city, state, zip',
      'created <= updated',
      'updated <= asOf',
    ]);
  });
});
