// EXPLAIN evidence on PostgreSQL: every filter path of the person query is served by an
// index, in the plan the service runs (generic, prepared). The dataset (30,000
// employments) is large enough that without the index the planner reads a whole table
// (employees, or the name pieces, by a sequential scan; for a person id
// a full scan of another index) at many times the cost, which the last test shows by
// dropping each index inside a rolled-back transaction.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_SETTINGS } from '../../server/db/engines/database.js';
import type { LookupKey } from '../../server/db/reads/lookups.js';
import { findPersons, findPersonsByKey } from '../../server/db/reads/queries.js';
import { foldName } from '../../server/domain/names.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import { readsEverything } from '../fixtures/credentials.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { everyFieldScope } from '../helpers/readScope.js';

const CREDENTIAL = '00000000-0000-4000-8000-0000000000c1';
const MANY = '00000000-0000-4000-8000-0000000000c2';

/** The SQL and parameters findPersons would send for this filter. */
async function personQuery(filter: Partial<PersonFilter>, companies = ['co-7']) {
  let captured: { sql: string; params: unknown[] } | undefined;
  await findPersons({ query: async (sql: string, params?: unknown[]) => ((captured = { sql, params: params ?? [] }), [{ as_of: '', ask: null }]) } as any, {
    ...everyFieldScope,
    credentialId: companies.length > 3 ? MANY : CREDENTIAL,
    authorizedCompanies: companies,
    inlineCompaniesMax: 3,
    limit: 50,
    offset: 0,
    ...filter,
  });
  return captured!;
}

/** The SQL and parameters findPersonsByKey would send for three lookups by `key`. */
async function lookupQuery(key: LookupKey, value: string, companies: string[]) {
  let captured: { sql: string; params: unknown[] } | undefined;
  const db = { query: async (sql: string, params?: unknown[]) => ((captured = { sql, params: params ?? [] }), [{ as_of: '', ask: null }]) } as any;
  const filter = {
    ...everyFieldScope,
    credentialId: companies.length > 3 ? MANY : CREDENTIAL,
    authorizedCompanies: companies,
    inlineCompaniesMax: 3,
    limit: 50,
    offset: 0,
  };
  await findPersonsByKey(
    db,
    filter,
    key,
    [1, 2, 3].map(() => ({ value, limit: 50, offset: 0 })),
  );
  return captured!;
}

/** Each filter kind, the index that serves it, and the table it would otherwise read in full. */
const kinds: [string, Partial<PersonFilter>, string, string][] = [
  ['a name substring', { lastName: foldName('ale') }, 'last_name_pieces_pkey', 'last_name_pieces'],
  ['a longer name substring', { lastName: foldName('alvarez') }, 'last_name_pieces_pkey', 'last_name_pieces'],
  ['a first name substring', { firstName: foldName('ann') }, 'first_name_pieces_pkey', 'first_name_pieces'],
  ['a phone', { phone: '+14155550999' }, 'employees_phone', 'employees'],
  ['a person id', { personId: '00000000-0000-4000-8000-000000000042' }, 'employees_person', 'employees'],
  [
    'company listing with a created range',
    { createdFrom: '2020-01-02T00:00:00Z', createdBefore: '2020-01-03T00:00:00Z' },
    'employees_company_person_created',
    'employees',
  ],
];

describe.skipIf(!process.env.DATABASE_URL)('person query plans on PostgreSQL', () => {
  let database: ThrowawayDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await throwawayDatabase('postgres');
    const db = database.db;
    await db.query(`INSERT INTO companies SELECT 'co-' || i, 'Company ' || i FROM generate_series(1, 40) i`);
    await db.query(
      `INSERT INTO persons SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, timestamptz '2020-01-01' + i * interval '1 minute', now() FROM generate_series(1, 20000) i`,
    );
    await db.query(`INSERT INTO employees (id, company_id, person_id, person_created_at, person_updated_at, first_name, last_name, first_name_folded, last_name_folded, date_of_birth, email, phone, address_line1, city, state, postal_code, created_at, updated_at)
      SELECT gen_random_uuid(), 'co-' || (1 + (i * 7) % 40), p.id, p.created_at, p.updated_at, n.f, n.l, lower(n.f), lower(n.l), date '1980-01-01', 'x@example.com',
             '+1415555' || lpad((i % 10000)::text, 4, '0'), '1 Main', 'City', 'CA', '90000', p.created_at, p.created_at
        FROM generate_series(1, 30000) i
        JOIN persons p ON p.id = ('00000000-0000-4000-8000-' || lpad(to_hex(1 + i % 20000), 12, '0'))::uuid
        CROSS JOIN LATERAL (SELECT (ARRAY['Anna','Ben','Chloé','Dmitri','Elif','Farid'])[1 + i % 6] || (i % 97) AS f,
                                   (ARRAY['Alvarez','Brown','Chen','Dubois','Eze','Fischer'])[1 + i % 6] || (i % 89) AS l) n`);
    await db.query(`INSERT INTO credentials (id, name, token_hash, fields, purpose) VALUES ($1, 'one', '\\x01', $3, $4), ($2, 'many', '\\x02', $3, $4)`, [
      CREDENTIAL,
      MANY,
      readsEverything.fields,
      readsEverything.purpose,
    ]);
    await db.query(`INSERT INTO credential_companies SELECT $1::uuid, 'co-7' UNION ALL SELECT $2::uuid, 'co-' || i FROM generate_series(1, 40) i`, [
      CREDENTIAL,
      MANY,
    ]);
    await db.query('VACUUM ANALYZE');
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // Plans as the service's sessions make them.
    for (const [name, value] of Object.entries(SESSION_SETTINGS)) await client.query(`SET ${name} = '${value}'`);
  }, 120_000);
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  const everyCompany = Array.from({ length: 40 }, (_, i) => `co-${i + 1}`);
  /**
   * Every node of the plan PostgreSQL would run, flattened: the generic plan of the
   * prepared statement, as the service runs it (EXPLAIN of the statement with parameters
   * would plan it for those values instead).
   */
  const planNodes = async (filter: Partial<PersonFilter>, companies: string[]) => statementPlan(await personQuery(filter, companies));
  const statementPlan = async ({ sql, params }: { sql: string; params: unknown[] }) => {
    const literal = (value: unknown) =>
      value === null || value === undefined
        ? 'NULL'
        : client.escapeLiteral(Array.isArray(value) ? `{${value.map((v) => `"${String(v).replace(/["\\]/g, '\\$&')}"`).join(',')}}` : String(value));
    await client.query(`PREPARE person_query AS ${sql}`);
    let row;
    try {
      [row] = (await client.query(`EXPLAIN (FORMAT JSON) EXECUTE person_query(${params.map(literal).join(', ')})`)).rows;
    } finally {
      await client.query('DEALLOCATE person_query');
    }
    const nodes: Record<string, any>[] = [];
    const walk = (node: Record<string, any>) => {
      nodes.push(node);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(row['QUERY PLAN'][0].Plan);
    return nodes;
  };
  const seqScans = (nodes: Record<string, any>[], tables = ['employees', 'persons', 'last_name_pieces', 'first_name_pieces']) =>
    nodes.filter((n) => n['Node Type'] === 'Seq Scan' && tables.includes(n['Relation Name']));
  const indexes = (nodes: Record<string, any>[]) => nodes.map((n) => n['Index Name']).filter(Boolean);

  it.each(kinds)('finds people by %s through indexes, never a sequential scan of employees, persons or name pieces', async (_, filter) => {
    for (const companies of [['co-7'], everyCompany]) {
      const nodes = await planNodes(filter, companies);
      expect(seqScans(nodes), `${companies.length} companies`).toEqual([]);
    }
  });

  it.each(kinds)('uses its own index for %s when the credential spans every company', async (_, filter, index) => {
    expect(indexes(await planNodes(filter, everyCompany))).toContain(index);
  });

  it.each([
    ['last', { lastName: foldName('ale') }, 'last_name_pieces_by_person'],
    ['longer last', { lastName: foldName('alvarez'), firstName: foldName('an') }, 'last_name_pieces_by_person'],
    ['first', { firstName: foldName('ann') }, 'first_name_pieces_by_person'],
  ] as const)('reads a %s name fragment over nearly every company in person order, never sorting its matches', async (_, filter, index) => {
    const nodes = await planNodes({ ...filter, companiesOutside: 2 }, everyCompany);
    expect(indexes(nodes)).toContain(index);
    expect(seqScans(nodes)).toEqual([]);
    // Index-only: the entry holds the company and both names it is checked by; the
    // companies outside the credential are a hash probed per entry, not a join.
    const reads = nodes.filter((n) => n['Index Name'] === index);
    expect(reads.map((n) => n['Node Type'])).toEqual(['Index Only Scan', 'Index Only Scan']);
    for (const read of reads) expect(read.Filter).toMatch(/NOT \(hashed SubPlan \d+\)/);
    // The page's few people are put in response order; the matches are never sorted.
    expect(nodes.filter((n) => n['Node Type'] === 'Sort').map((n) => n['Sort Key'])).toEqual([['page.created_at', 'page.id']]);
  });

  it.each([
    ['last', { lastName: 'al' }, 'last_name_dictionary_short', 'employees_last_name'],
    ['first', { firstName: 'n' }, 'first_name_dictionary_short', 'employees_first_name'],
    // (The first-name pieces hold no last name: a longer first name with a shorter last goes through the dictionary by its pieces.)
    ['longer first', { firstName: 'anna', lastName: 'a' }, 'first_name_dictionary_pieces', 'employees_first_name'],
  ] as const)(
    "finds the %s names holding a fragment by the dictionary's own index, and their employments by name",
    async (_, filter, dictionaryIndex, index) => {
      for (const companies of [['co-7'], everyCompany]) {
        const used = indexes(await planNodes(filter, companies));
        expect(used, `${companies.length} companies`).toContain(dictionaryIndex);
        expect(used, `${companies.length} companies`).toContain(index);
      }
    },
  );

  it.each([
    ['personId', '00000000-0000-4000-8000-000000000042', 'employees_person'],
    ['phone', '+14155550999', 'employees_phone'],
  ] as const)('finds the lookups of one statement by %s through its index, one probe each, never a whole company', async (key, value, index) => {
    for (const companies of [['co-7'], ['co-7', 'co-8'], everyCompany]) {
      const nodes = await statementPlan(await lookupQuery(key, value, companies));
      const label = `${companies.length} companies`;
      expect(seqScans(nodes), label).toEqual([]);
      expect(indexes(nodes), label).toContain(index);
      // A company's creation-ordered index read for its company alone is the whole company.
      const wholeCompany = nodes.filter((n) => n['Index Name'] === 'employees_company_person_created' && !/person_/.test(n['Index Cond'] ?? ''));
      expect(wholeCompany, label).toEqual([]);
    }
  });

  it.each(kinds)('would read all of a table for %s without that index (the dataset is large enough to tell)', async (_, filter, index, table) => {
    await client.query('BEGIN');
    try {
      await client.query(index.endsWith('_pkey') ? `ALTER TABLE ${table} DROP CONSTRAINT ${index}` : `DROP INDEX ${index}`);
      const nodes = await planNodes(filter, everyCompany);
      expect(indexes(nodes)).not.toContain(index);
      // A sequential scan of employees; or, for a person id (which the creation-ordered
      // company index also holds, after the creation time), that index read company by
      // company from end to end: the person id bounds nothing there.
      const readInFull = nodes.filter(
        (n) =>
          n['Index Name'] === 'employees_company_person_created' &&
          /person_id =/.test(n['Index Cond'] ?? '') &&
          !/person_created_at/.test(n['Index Cond'] ?? ''),
      );
      expect([...seqScans(nodes).map((n) => n['Relation Name']), ...readInFull.map(() => 'employees')]).toContain(table);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
