// A credential reads only its field groups (docs/decisions/0020-withheld-fields.md), over
// real HTTP on each engine: every value of a group it lacks, as a full credential reads it,
// is absent from every body, header and log line the narrow credential's requests make;
// `withheld` names the groups; a filter on a withheld group is 403 before anything is read;
// a full credential's answer carries no `withheld`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FieldGroup, fieldGroupNames } from '../../server/domain/fieldGroups.js';
import { ids, narrowCredentials, narrowTokens, smallDataset, tokens, unlinkedRecords } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { captureLogs, type LogCapture } from '../helpers/logCapture.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Each group's values in an Employee, by where they sit. */
const valuesOf: Record<FieldGroup, (e: any) => unknown[]> = {
  name: (e) => [e.demographics.firstName, e.demographics.lastName],
  dateOfBirth: (e) => [e.demographics.dateOfBirth],
  gender: (e) => [e.demographics.gender],
  email: (e) => [e.contact.email],
  phone: (e) => [e.contact.phone],
  address: (e) => Object.values(e.contact.address),
  externalIds: (e) => e.externalIds.flatMap((id: { system_id: string }) => [id.system_id]),
  membership: (e) => [e.membership.invitation?.invitedAt, e.membership.invitation?.expiresAt],
  participation: (e) => [e.participation?.decidedAt],
  coverage: (e) => [e.coverage?.startsAt, e.coverage?.endsAt, e.coverage?.planTier],
};
/** Whether an Employee shows each group (its keys present, whatever their values). */
const shows: Record<FieldGroup, (e: any) => boolean> = {
  name: (e) => 'firstName' in e.demographics && 'lastName' in e.demographics,
  dateOfBirth: (e) => 'dateOfBirth' in e.demographics,
  gender: (e) => 'gender' in e.demographics,
  email: (e) => 'email' in e.contact,
  phone: (e) => 'phone' in e.contact,
  address: (e) => 'address' in e.contact,
  externalIds: (e) => 'externalIds' in e,
  membership: (e) => 'membership' in e,
  participation: (e) => 'participation' in e,
  coverage: (e) => 'coverage' in e,
};
const narrow = [
  { token: narrowTokens.nameEmail, granted: ['name', 'email'] },
  { token: narrowTokens.benefits, granted: ['name', 'gender', 'email', 'phone', 'externalIds', 'membership', 'participation', 'coverage'] },
] as const;

describe.each(engines)('withheld field groups on %s', (engine) => {
  let server: TestServer;
  let logs: LogCapture;
  beforeAll(async () => {
    logs = captureLogs('debug');
    server = await startTestServer({
      engine,
      records: [...smallDataset(), ...unlinkedRecords(), ...narrowCredentials()],
      logger: logs.logger,
      env: { LOG_LEVEL: 'debug' },
    });
  });
  afterAll(() => server?.close());

  /** Every request the operations answer with employments, as `token`. */
  const reads = (token: string) => [
    server.call('POST', '/v1/persons/search', { token, body: {} }),
    server.call('POST', '/v1/persons/search', { token, body: { companyId: 'acme-corp', limit: 1 } }),
    server.call('GET', `/v1/persons/${ids.emile}`, { token }),
    server.call('POST', '/v1/employees/search', { token, body: {} }),
  ];
  const employmentsIn = (body: any): any[] => [
    ...(body.persons ?? []).flatMap((p: any) => p.employments),
    ...(body.person?.employments ?? []),
    ...(body.employees ?? []),
  ];

  it.each(narrow)('never sends a value of a group $token lacks, in a body, a header or a log line', async ({ token, granted }) => {
    const withheld = fieldGroupNames.filter((g) => !(granted as readonly string[]).includes(g));
    const full = await Promise.all(reads(tokens.both));
    const secrets = new Set(
      full
        .flatMap((res) => employmentsIn(res.body))
        .flatMap((e) => withheld.flatMap((group) => valuesOf[group](e)))
        .filter((value): value is string => typeof value === 'string' && value.length > 2),
    );
    expect(secrets.size).toBeGreaterThan(3);
    const logsBefore = logs.text().length;
    const answers = await Promise.all(reads(token));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.withheld).toEqual(withheld);
      const sent = JSON.stringify(res.body) + JSON.stringify(res.headers);
      for (const secret of secrets) expect(sent, secret).not.toContain(JSON.stringify(secret).slice(1, -1));
      for (const employment of employmentsIn(res.body))
        for (const group of fieldGroupNames) expect(shows[group](employment), group).toBe(!withheld.includes(group));
    }
    const logged = logs.text().slice(logsBefore);
    expect(logged).not.toBe('');
    for (const secret of secrets) expect(logged, secret).not.toContain(secret);
  });

  it('answers a full credential exactly as before: no withheld, every group present', async () => {
    for (const res of await Promise.all(reads(tokens.both))) {
      expect(res.body).not.toHaveProperty('withheld');
      for (const employment of employmentsIn(res.body)) for (const group of fieldGroupNames) expect(() => valuesOf[group](employment), group).not.toThrow();
    }
  });

  it('refuses filters on a group the credential lacks with 403, naming field and group, and reads nothing', async () => {
    const token = narrowTokens.nameEmail;
    const entries = async () => {
      await server.auditShipped();
      const [row] = await server.database.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM access_audit a JOIN credentials c ON c.id = a.credential_id WHERE c.name = $1',
        ['scheduling tool'],
      );
      return row!.n;
    };
    const before = await entries();
    const refused = [
      await server.call('POST', '/v1/persons/search', { token, body: { phone: '(415) 555-0132' } }),
      await server.call('POST', '/v1/employees/search', { token, body: { phone: '(415) 555-0132', lastName: 'x' } }),
      await server.call('POST', '/v1/persons/search', { token, body: { externalIdSystems: [] } }),
      await server.call('GET', `/v1/persons/${ids.emile}?externalIdSystems=payroll`, { token }),
    ];
    expect(refused.map((res) => [res.status, res.body.error, res.body.details.map((d: any) => [d.path, d.fieldGroup])])).toEqual([
      [403, 'forbidden', [['/body/phone', 'phone']]],
      [403, 'forbidden', [['/body/phone', 'phone']]],
      [403, 'forbidden', [['/body/externalIdSystems', 'externalIds']]],
      [403, 'forbidden', [['/query/externalIdSystems', 'externalIds']]],
    ]);
    // Refused before anything was read: no entry in the access audit.
    expect(await entries()).toBe(before);
    // The groups it holds, it may filter on.
    expect((await server.call('POST', '/v1/persons/search', { token, body: { lastName: 'dur' } })).status).toBe(200);
  });
});
