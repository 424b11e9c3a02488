// Import is all-or-nothing on each engine: a file with any bad record writes nothing, and
// every bad record is named with its line and reason. (What a good file changes:
// importChanges.test.ts.)
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/engines/database.js';
import { hashToken } from '../../server/domain/tokens.js';
import { ImportParseError, ImportRejected, importRecords, importText } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { recordReadsEverything } from '../fixtures/credentials.js';
import { employee, ids, smallDataset, tokens } from '../fixtures/small.js';
import { engines, useThrowawayDatabase } from '../helpers/databases.js';
import { startTestServer } from '../helpers/server.js';
import { databaseFingerprint as snapshot } from '../helpers/storedCounts.js';

async function rejection(db: Database, records: ImportRecord[]): Promise<ImportRejected> {
  const error = await importRecords(db, records, 'US').then(
    () => undefined,
    (e) => e,
  );
  expect(error).toBeInstanceOf(ImportRejected);
  return error as ImportRejected;
}

describe.each(engines)('import on %s', (engine) => {
  const database = useThrowawayDatabase(engine);

  const newPerson = '11111111-2222-4333-8444-555555555555';
  const newEmployee = '66666666-7777-4888-9999-000000000000';

  it('stores phones in E.164 and names folded for search', async () => {
    const [row] = await database.db.query<{ phone: string; first_name_folded: string }>('SELECT phone, first_name_folded FROM employees WHERE id = $1', [
      ids.emileAcme,
    ]);
    expect(row).toEqual({ phone: '+14155550132', first_name_folded: 'émile' });
  });

  it.each<[string, ImportRecord[], RegExp]>([
    [
      'an unparseable phone',
      [employee({ id: newEmployee, companyId: 'acme-corp', personId: null, phone: 'call me maybe' })],
      /line 1.*phone "call me maybe" cannot be parsed/,
    ],
    [
      'a person deleted while an employment still names them',
      [{ type: 'delete', record: 'person', id: ids.ana }],
      /line 1.*person .* still has 1 employment\(s\) this file neither deletes nor relinks/,
    ],
    [
      'a per-employment record for an employment the same file deletes',
      [
        { type: 'delete', record: 'employee', id: ids.anaAcme },
        { type: 'coverage', employeeId: ids.anaAcme, status: 'enrolled', startsAt: '2025-01-01T00:00:00Z', endsAt: null, planTier: null },
      ],
      /line 2.*employee .* is deleted on line 1/,
    ],
    [
      'a stored employment restated with its person while the same file deletes that person',
      [employee({ id: ids.anaAcme, companyId: 'acme-corp', personId: ids.ana }), { type: 'delete', record: 'person', id: ids.ana }],
      /line 1.*person .* is deleted on line 2/,
    ],
    ['an unknown company', [employee({ id: newEmployee, companyId: 'nowhere-inc', personId: null })], /line 1.*unknown company nowhere-inc/],
    ['an unknown person', [employee({ id: newEmployee, companyId: 'acme-corp', personId: newPerson })], /line 1.*unknown person/],
    [
      'a company deleted while a credential names it',
      [
        { type: 'delete', record: 'company', id: 'globex' },
        { type: 'delete', record: 'employee', id: ids.emileGlobex },
      ],
      /line 1.*company globex is one of the companies of credential "acme and globex"/,
    ],
    ['a record of the wrong shape', [{ type: 'person', id: 'not-a-uuid', createdAt: 'yesterday' } as any], /line 1.*(uuid|date-time|updatedAt)/],
    ['an unknown record type', [{ type: 'salary', amount: 1 } as any], /line 1.*unknown record type "salary"/],
    ['a record type named like an object property', [{ type: 'constructor' } as any, { type: 'toString' } as any], /line 2.*unknown record type "toString"/],
    ['a record that is no object', [42 as any, null as any], /line 2: record: a record must be a JSON object/],
    // Values a lenient check would pass and the database cannot store, or the contract could not write back.
    [
      'a name holding U+0000',
      [employee({ id: newEmployee, companyId: 'acme-corp', personId: null, lastName: 'Nul\u0000l' })],
      /line 1.*\/lastName must not contain the character U\+0000/,
    ],
    [
      'an external id holding a lone surrogate',
      [employee({ id: newEmployee, companyId: 'acme-corp', personId: null, externalIds: [{ system: 'hris', system_id: 'E-\udc00' }] })],
      /line 1.*\/externalIds\/0\/system_id must be well-formed Unicode/,
    ],
    ['a UUID written as a URN', [employee({ id: `urn:uuid:${newEmployee}`, companyId: 'acme-corp', personId: null })], /line 1.*\/id must match format "uuid"/],
    [
      'a date of birth in year 0000',
      [employee({ id: newEmployee, companyId: 'acme-corp', personId: null, dateOfBirth: '0000-02-08' })],
      /line 1.*\/dateOfBirth must match format "date"/,
    ],
    ...(
      [
        ['an instant before year 1', '0001-01-01T00:30:00+00:31'],
        ['an instant after year 9999', '9999-12-31T23:59:60Z'],
        ['a date-time without its T', '2024-01-01 00:00:00Z'],
        ['a date-time with another space for its T', '2024-01-01\u200300:00:00Z'],
        ['an offset without its colon', '2024-01-01T00:00:00+0100'],
      ] as const
    ).map(([name, createdAt]): [string, ImportRecord[], RegExp] => [
      name,
      [{ type: 'person', id: newPerson, createdAt, updatedAt: '2026-01-01T00:00:00Z' }],
      /line 1.*\/createdAt must match format "date-time"/,
    ]),
  ])('rejects %s, names it, and writes nothing', async (_, bad, expected) => {
    const before = await snapshot(database.db);
    // Good records around the bad one: they must not land either.
    const good: ImportRecord[] = [
      { type: 'company', id: 'fresh-co', name: 'Fresh' },
      { type: 'person', id: newPerson, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' },
    ];
    const badFirst = expected.source.includes('unknown person') ? bad : [...bad, ...good];
    const error = await rejection(database.db, badFirst);
    const lines = error.problems.map((p) => `line ${p.line}: ${p.record}: ${p.message}`).join('\n');
    expect(lines).toMatch(expected);
    expect(await snapshot(database.db)).toEqual(before);
  });

  it('names each per-employment record of an employment absent after the file by its own line and kind', async () => {
    const before = await snapshot(database.db);
    const error = await rejection(database.db, [
      { type: 'membership', employeeId: newEmployee, status: 'active' },
      { type: 'company', id: 'fresh-co', name: 'Fresh' },
      { type: 'coverage', employeeId: newEmployee, status: 'enrolled', startsAt: '2025-01-01T00:00:00Z', endsAt: null, planTier: null },
      { type: 'delete', record: 'employee', id: ids.anaAcme },
      { type: 'invitation', employeeId: ids.anaAcme, status: 'pending', invitedAt: '2026-01-01T00:00:00Z', expiresAt: '2026-02-01T00:00:00Z' },
    ]);
    const unknown = `unknown employee ${newEmployee}: not in this import nor in the database`;
    expect(error.problems).toEqual([
      { line: 1, record: `membership ${newEmployee}`, message: unknown },
      { line: 3, record: `coverage ${newEmployee}`, message: unknown },
      { line: 5, record: `invitation ${ids.anaAcme}`, message: `employee ${ids.anaAcme} is deleted on line 4` },
    ]);
    expect(await snapshot(database.db)).toEqual(before);
  });

  it('stores a date-time the database cannot read as written as the instant it names, and finds it unchanged again', async () => {
    const instants = [
      ['2024-03-01T00:00:00+16:00', '2024-02-29T08:00:00.000Z'],
      ['2016-12-31T18:59:60-05:00', '2017-01-01T00:00:00.000Z'],
      ['2024-01-01T00:00:00.1234565Z', '2024-01-01T00:00:00.123Z'],
      ['0001-01-01T00:30:00+00:15', '0001-01-01T00:15:00.000Z'],
      ['2024-06-01t12:00:00z', '2024-06-01T12:00:00.000Z'],
    ] as const;
    const people = instants.map(
      ([createdAt], i): ImportRecord => ({
        type: 'person',
        id: `aaaaaaaa-0000-4000-8000-00000000000${i}`,
        createdAt,
        updatedAt: createdAt,
      }),
    );
    expect((await importRecords(database.db, people, 'US')).person.added).toBe(instants.length);
    const rows = await database.db.query<{ id: string; at: string; micros: string }>(
      `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, extract(microseconds FROM created_at)::text AS micros
       FROM persons WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [people.map((p) => (p as { id: string }).id)],
    );
    expect(rows.map((r) => r.at)).toEqual(instants.map(([, at]) => at));
    // A finer fraction is rounded up to the microsecond (server/domain/formats.ts).
    expect(rows[2]!.micros).toBe('123457');
    expect((await importRecords(database.db, people, 'US')).person.unchanged).toBe(instants.length);
  });

  it('reports every problem of a file at once', async () => {
    const error = await rejection(database.db, [
      employee({ id: newEmployee, companyId: 'nowhere-inc', personId: null, phone: 'nope' }),
      { type: 'membership', employeeId: newPerson, status: 'active' },
      { type: 'company', id: 'bad id', name: 'x' },
    ]);
    expect(error.problems.map((p) => p.line).sort()).toEqual([1, 2, 3]);
  });

  it('reads NDJSON and JSON arrays, and rejects a malformed line', async () => {
    const line = JSON.stringify({ type: 'company', id: 'ndjson-co', name: 'N' });
    await importText(database.db, `${line}\n\n`, 'US');
    await importText(database.db, JSON.stringify([{ type: 'company', id: 'array-co', name: 'A' }]), 'US');
    const rows = await database.db.query('SELECT id FROM companies WHERE id IN ($1, $2)', ['ndjson-co', 'array-co']);
    expect(rows).toHaveLength(2);
    const malformed = await importText(database.db, `${line}\n{oops`, 'US').catch((e) => e);
    expect(malformed).toBeInstanceOf(ImportRejected);
    expect(malformed.problems).toEqual([{ line: 2, record: '', message: "not valid JSON at column 2: Expected property name or '}'" }]);
    await expect(importText(database.db, '[{"type":"company"', 'US')).rejects.toBeInstanceOf(ImportParseError);
  });

  it('stores only a hash of a fixture token, and a given hash as it is', async () => {
    const hash = hashToken('plk_imported_by_hash_0000001').toString('hex');
    await importRecords(database.db, [{ type: 'credential', name: 'by hash', tokenHash: hash, companies: ['acme-corp'], ...recordReadsEverything }], 'US');
    const rows = await database.db.query<{ name: string; token_hash: Uint8Array }>('SELECT name, token_hash FROM credentials ORDER BY name');
    expect(Buffer.from(rows.find((r) => r.name === 'by hash')!.token_hash).toString('hex')).toBe(hash);
    expect(JSON.stringify(rows)).not.toContain(tokens.both);
  });

  it('refuses a credential name `credentials list` could not show on one line, naming the rule in words', async () => {
    const named = (name: string, n: number) => ({
      type: 'credential' as const,
      name,
      token: `plk_badly_named_token_000${n}`,
      companies: ['acme-corp'],
      ...recordReadsEverything,
    });
    const error = await importRecords(database.db, [named('a\nb', 1), named('   ', 2), named('\u001b[31mred', 3)], 'US').catch((e) => e);
    expect(error).toBeInstanceOf(ImportRejected);
    const rule = '/name must hold a character other than a space, and no control character (a newline, a tab, an escape)';
    expect(error.problems.map((p: { record: string; message: string }) => `${p.record}: ${p.message}`)).toEqual([
      `credential "a\\nb": ${rule}`,
      `credential "   ": ${rule}`,
      `credential "\\u001b[31mred": ${rule}`,
    ]);
  });
});

describe('imported credentials', () => {
  it('authenticate on the server, by plaintext fixture token and by hash', async () => {
    const server = await startTestServer({
      records: [
        ...smallDataset(),
        {
          type: 'credential',
          name: 'hashed',
          tokenHash: hashToken('plk_hashed_token_value_01').toString('hex'),
          companies: ['globex'],
          ...recordReadsEverything,
        },
      ],
    });
    try {
      expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.acme })).status).toBe(200);
      expect((await server.call('GET', '/v1/companies/globex/hello', { token: 'plk_hashed_token_value_01' })).status).toBe(200);
      expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: 'plk_hashed_token_value_01' })).status).toBe(403);
    } finally {
      await server.close();
    }
  });
});
