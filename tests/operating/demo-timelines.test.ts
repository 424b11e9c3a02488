// Generated data tells a story that could have happened: an invitation is sent after its
// employment was created and before the instant the data is "as of" (so before any
// answer's `asOf`), and expires after it is sent; a still-pending invitation that has not
// expired was sent within its validity; coverage starts before it ends; decisions and
// updates lie before that instant. Held over the demo (the one `npm start` loads, at its
// load instant, and at other sizes and seeds), the bench's realistic shares and the model
// tests' tied instants, all from the one generator; then over the loaded demo as a
// consumer reads it, against `asOf`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset, scaleFor } from '../../bench/dataset/generate.js';
import type { components } from '../../generated/types.full.js';
import { entityRecords } from '../../server/dataset/toRecords.js';
import { demoCredentials, demoDataset } from '../../server/demo/dataset.js';
import { loadDemoIfEmpty } from '../../server/demo/load.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { randomDataset } from '../persons/randomDataset.js';

type Employee = components['schemas']['Employee'];
const time = (iso: string) => Date.parse(iso);

/** Every way the records' times contradict each other or `now` (none: a coherent dataset). */
function timelineProblems(records: readonly ImportRecord[], now: number): string[] {
  const problems: string[] = [];
  const created = new Map<string, number>();
  for (const r of records) {
    if (r.type === 'employee') created.set(r.id, time(r.createdAt));
    if (r.type === 'person' || r.type === 'employee') {
      if (!(time(r.createdAt) <= time(r.updatedAt) && time(r.updatedAt) <= now))
        problems.push(`${r.type} ${r.id}: created ${r.createdAt}, updated ${r.updatedAt}`);
    }
  }
  for (const r of records) {
    const say = (what: string) => problems.push(`${r.type} of ${(r as { employeeId: string }).employeeId}: ${what} ${JSON.stringify(r)}`);
    if (r.type === 'invitation') {
      const [sent, expires] = [time(r.invitedAt), time(r.expiresAt)];
      if (!(sent < now)) say('sent after the data was as of');
      if (!(sent >= created.get(r.employeeId)!)) say('sent before its employment was created');
      if (!(expires > sent)) say('expires before it was sent');
    }
    if (r.type === 'coverage' && r.endsAt !== null && !(time(r.startsAt) < time(r.endsAt))) say('ends before it starts');
    if (r.type === 'coverage' && !(time(r.startsAt) >= created.get(r.employeeId)!)) say('starts before its employment was created');
    if (r.type === 'participation' && r.decidedAt !== null && !(time(r.decidedAt) <= now)) say('decided after the data was as of');
  }
  return problems;
}

const pendingStates = (records: readonly ImportRecord[], now: number) =>
  new Set(records.flatMap((r) => (r.type === 'invitation' && r.status === 'pending' ? [time(r.expiresAt) > now ? 'valid' : 'expired'] : [])));

describe('generated timelines are coherent', () => {
  it('in the demo, as exported (its fixed instant), with valid and expired pending invitations', () => {
    const now = time('2026-11-20T12:00:00Z');
    const records = demoDataset();
    expect(records.filter((r) => r.type === 'invitation').length).toBeGreaterThan(300);
    expect(timelineProblems(records, now)).toEqual([]);
    expect(pendingStates(records, now)).toEqual(new Set(['valid', 'expired']));
  });

  it('in the demo at other instants, sizes and seeds', () => {
    for (const [people, seed, at] of [
      [300, 20261120, '2031-02-28T23:59:59Z'],
      [40, 1, '2026-01-01T00:00:00Z'],
      [2_000, 7, '2027-06-15T08:30:00Z'],
    ] as const) {
      const now = time(at);
      const records = demoDataset({ people, seed, now: new Date(now) });
      expect(timelineProblems(records, now), `${people} people, seed ${seed}, as of ${at}`).toEqual([]);
      expect(pendingStates(records, now)).toEqual(new Set(['valid', 'expired']));
    }
  });

  it("in the bench's realistic shares", () => {
    const dataset = createDataset(scaleFor(3_000, { seed: 11 }));
    const records = [...dataset.entities()].flatMap(entityRecords);
    expect(timelineProblems(records, Date.UTC(2026, 10, 20, 12))).toEqual([]);
  });

  it("in the model tests' few tied instants", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { records } = randomDataset(seed);
      expect(timelineProblems(records, Date.UTC(2099, 0, 1)), `seed ${seed}`).toEqual([]);
    }
  });

  it('the checks can fail: an invitation sent in the future, one that expires before it is sent, coverage that ends first', () => {
    const now = time('2026-11-20T12:00:00Z');
    const employee = demoDataset({ people: 1 }).find((r) => r.type === 'employee')!;
    const bad: ImportRecord[] = [
      employee,
      { type: 'invitation', employeeId: employee.id, status: 'pending', invitedAt: '2026-12-01T00:00:00Z', expiresAt: '2026-12-31T00:00:00Z' },
      { type: 'invitation', employeeId: employee.id, status: 'accepted', invitedAt: '2026-10-01T00:00:00Z', expiresAt: '2026-09-01T00:00:00Z' },
      { type: 'coverage', employeeId: employee.id, status: 'terminated', startsAt: '2026-10-01T00:00:00Z', endsAt: '2026-10-01T00:00:00Z', planTier: null },
    ];
    expect(timelineProblems(bad, now).map((p) => p.split(': ')[1]!.split(' {')[0])).toEqual([
      'sent after the data was as of',
      'expires before it was sent',
      'ends before it starts',
    ]);
  });
});

describe('the demo as npm start loads it, read through the API', () => {
  let database: ThrowawayDatabase;
  let server: TestServer;
  beforeAll(async () => {
    database = await throwawayDatabase('pglite');
    await loadDemoIfEmpty(database.db, 'US');
    server = await startTestServer({ database });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('every invitation was sent before asOf and expires after it was sent; every membership status shows', async () => {
    const token = demoCredentials[0]!.token;
    const employments: { asOf: number; employee: Employee }[] = [];
    for (let offset = 0, total = 1; offset < total; offset += 100) {
      const res = await server.call('POST', '/v1/persons/search', { token, body: { limit: 100, offset } });
      total = res.body.pagination.total;
      for (const person of res.body.persons) for (const employee of person.employments) employments.push({ asOf: time(res.body.asOf), employee });
    }
    expect(employments.length).toBeGreaterThan(400);
    // The demo token reads every field group: each employment shows its membership.
    const memberships = employments.map(({ asOf, employee }) => ({ asOf, membership: employee.membership! }));
    expect(memberships.every(({ membership }) => membership !== undefined)).toBe(true);
    const late = memberships.filter(({ asOf, membership: { invitation } }) => invitation && !(time(invitation.invitedAt) < asOf));
    expect(late).toEqual([]);
    const backwards = memberships.filter(({ membership: { invitation } }) => invitation && !(time(invitation.expiresAt) > time(invitation.invitedAt)));
    expect(backwards).toEqual([]);
    const coverage = employments.filter(({ employee: { coverage } }) => coverage?.endsAt && !(time(coverage.startsAt) < time(coverage.endsAt)));
    expect(coverage).toEqual([]);
    expect(new Set(memberships.map(({ membership }) => membership.status))).toEqual(
      new Set(['not_invited', 'invited_pending', 'invited_expired', 'active', 'revoked_access']),
    );
  });
});
