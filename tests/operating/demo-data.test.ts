// The demo dataset keeps what the README and the docs promise of it: six companies of
// skewed sizes, the counts the README states, unlinked records in every company, every
// source-record state, the named people and the published tokens; and it loads.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeFields } from '../../server/access/credentialChanges.js';
import { demoCompanies, demoCredentials, demoDataset } from '../../server/demo/dataset.js';
import { loadDemoIfEmpty } from '../../server/demo/load.js';
import { credentialPurposeProblem } from '../../server/domain/credentials.js';
import { everyField } from '../../server/domain/fieldGroups.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const records = demoDataset();
const now = Date.parse('2026-11-20T12:00:00Z');
const ofType = <T extends ImportRecord['type']>(type: T) => records.filter((r): r is Extract<ImportRecord, { type: T }> => r.type === type);
const employees = ofType('employee');

describe('the demo dataset', () => {
  it('is the same for the same seed', () => {
    expect(demoDataset()).toEqual(records);
  });

  it('holds the counts the README states', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(
      `${ofType('company').length} companies of skewed sizes, ${ofType('person').length} people, ${employees.length} employments, unlinked records`,
    );
  });

  it('has companies of skewed sizes, the largest the heaviest, and unlinked records in every one', () => {
    const size = (id: string) => employees.filter((e) => e.companyId === id).length;
    const sizes = demoCompanies.map((c) => size(c.id));
    expect(Math.max(...sizes)).toBe(size(demoCompanies[0]!.id));
    expect(size(demoCompanies[0]!.id)).toBeGreaterThan(5 * size(demoCompanies.at(-1)!.id));
    for (const c of demoCompanies)
      expect(
        employees.some((e) => e.companyId === c.id && e.personId === null),
        c.id,
      ).toBe(true);
    const firstUnlinked = employees.find((e) => e.personId === null)!;
    expect(firstUnlinked).toMatchObject({ companyId: 'acme-corp', firstName: 'Émile', lastName: 'Durand' });
  });

  it('holds the named people the docs use, some people in several companies', () => {
    for (const [first, last] of [
      ['Émile', 'Durand'],
      ['Ana', 'Durán'],
      ['Zoë', "O'Brien-Ångström"],
    ])
      expect(employees.some((e) => e.personId !== null && e.firstName === first && e.lastName === last)).toBe(true);
    const companiesOf = new Map<string, Set<string>>();
    for (const e of employees) if (e.personId) companiesOf.set(e.personId, (companiesOf.get(e.personId) ?? new Set()).add(e.companyId));
    expect([...companiesOf.values()].some((companies) => companies.size === 3)).toBe(true);
  });

  it('holds every membership, invitation, linked-user, participation and coverage state', () => {
    const has = (type: ImportRecord['type']) => new Set(records.filter((r) => r.type === type).map((r) => (r as { employeeId: string }).employeeId));
    const without = (type: ImportRecord['type']) => employees.some((e) => !has(type).has(e.id));
    expect(new Set(ofType('membership').map((m) => m.status))).toEqual(new Set(['active', 'revoked']));
    expect(without('membership')).toBe(true);
    const invitations = ofType('invitation');
    expect(new Set(invitations.map((i) => i.status))).toEqual(new Set(['pending', 'accepted', 'revoked']));
    expect(invitations.some((i) => i.status === 'pending' && Date.parse(i.expiresAt) > now)).toBe(true);
    expect(invitations.some((i) => i.status === 'pending' && Date.parse(i.expiresAt) < now)).toBe(true);
    expect(without('invitation')).toBe(true);
    expect(new Set(ofType('linkedUser').map((u) => u.status))).toEqual(new Set(['active', 'deactivated']));
    expect(new Set(ofType('participation').map((p) => p.decision))).toEqual(new Set(['opt_in', 'opt_out', null]));
    expect(without('participation')).toBe(true);
    expect(new Set(ofType('coverage').map((c) => c.status))).toEqual(new Set(['enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated']));
    expect(without('coverage')).toBe(true);
  });

  it('carries the published demo tokens, narrow ones among them, each with a purpose', () => {
    expect(ofType('credential').map((c) => c.token)).toEqual(demoCredentials.map((c) => c.token));
    expect(ofType('credential').map((c) => [c.name, c.fields.join(',')])).toEqual([
      ['demo: every company', everyField.join(',')],
      ['demo: acme-corp only', everyField.join(',')],
      ['demo: globex and initech', everyField.join(',')],
      ['demo: scheduling tool', 'name,email'],
      ['demo: benefits tool', 'name,gender,email,phone,externalIds,membership,participation,coverage'],
    ]);
    for (const c of ofType('credential')) expect(credentialPurposeProblem(c.purpose)).toBeUndefined();
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`TOKEN=${demoCredentials[0]!.token}`);
    for (const narrow of demoCredentials.slice(3)) expect(readme).toContain(`\`${narrow.token}\``);
  });

  describe('loaded into an empty database', () => {
    let database: ThrowawayDatabase;
    beforeAll(async () => {
      database = await throwawayDatabase('pglite');
    });
    afterAll(() => database?.drop());

    it('imports every record, and is not loaded twice', async () => {
      const load = await loadDemoIfEmpty(database.db, 'US');
      expect(load?.summary).toBe(
        `${ofType('company').length} companies, ${ofType('person').length} people, ${employees.length} employments (some unlinked), every status`,
      );
      expect((await loadDemoIfEmpty(database.db, 'US'))?.loaded).toBe(false);
    }, 60_000);

    it('gives npm start every demo token with the field groups it reads on this database', async () => {
      const fields = async () => (await loadDemoIfEmpty(database.db, 'US'))?.tokens.map((t) => [t.name, t.fields]);
      expect(await fields()).toEqual([
        ['demo: every company', 'all'],
        ['demo: acme-corp only', 'all'],
        ['demo: globex and initech', 'all'],
        ['demo: scheduling tool', 'name,email'],
        ['demo: benefits tool', 'name,gender,email,phone,externalIds,membership,participation,coverage'],
      ]);
      // As stored: an operator's set-fields shows at the next start.
      const [{ id }] = (await database.db.query<{ id: string }>(`SELECT id FROM credentials WHERE name = 'demo: scheduling tool'`)) as [{ id: string }];
      await changeFields(database.db, id, ['name']);
      expect((await fields())?.[3]).toEqual(['demo: scheduling tool', 'name']);
    });
  });
});
