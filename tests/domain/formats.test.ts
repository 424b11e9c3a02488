// The contract's uuid and date-time formats and the values the server reads from them
// (server/domain/formats.ts) agree exactly: what the contract's schema accepts, the
// domain reads; what it refuses, the domain refuses too; and where PostgreSQL can read a
// date-time itself, it reads the same instant as the domain does, on both engines.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContractDocument } from '../../server/contract.js';
import { canonicalUuid, databaseInstant, isStorableDate, storedInstant } from '../../server/domain/formats.js';
import { dateTimeLike, rfc3339, uuidLike } from '../helpers/arbitraries.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const RUNS = Number(process.env.FORMAT_PROPERTY_RUNS ?? 2_000);
const contract = readContractDocument();
const ajv = (addFormatsModule as unknown as (ajv: Ajv) => Ajv)(new Ajv({ strict: false }));
const request = contract.components.schemas.SearchPersonsRequest.properties;
/** A schema, or the component schema its local `$ref` names (the requests share their bounds' schema). */
const resolved = (schema: any): any => (schema.$ref ? resolved(contract.components.schemas[schema.$ref.split('/').pop()]) : schema);
const contractAccepts = {
  createdFrom: ajv.compile(resolved(request.createdFrom)),
  createdBefore: ajv.compile(resolved(request.createdBefore)),
  personId: ajv.compile(resolved(request.personId)),
  personIdPath: ajv.compile(contract.components.parameters.PersonId.schema),
};

describe('the contract and the domain agree on what a date-time is', () => {
  it(`accept and refuse the same strings (${RUNS} RFC 3339 edge forms and near misses)`, () => {
    fc.assert(
      fc.property(dateTimeLike, ({ text, valid }) => {
        expect(contractAccepts.createdFrom(text), text).toBe(valid);
        expect(contractAccepts.createdBefore(text), text).toBe(valid);
        expect(databaseInstant(text) !== undefined, text).toBe(valid);
      }),
      { numRuns: RUNS },
    );
  });

  it.each([
    // Offsets past PostgreSQL's ±15:59, converted to the instant they name.
    ['2024-03-01T00:00:00+16:00', '2024-02-29 08:00:00.000000+00'],
    ['2024-03-01T00:00:00+23:59', '2024-02-29 00:01:00.000000+00'],
    ['2024-02-28T23:00:00-23:59', '2024-02-29 22:59:00.000000+00'],
    ['2024-01-01T00:00:00-00:00', '2024-01-01 00:00:00.000000+00'],
    // Leap seconds: the first instant of the next minute, whatever the fraction.
    ['2016-12-31T23:59:60Z', '2017-01-01 00:00:00.000000+00'],
    ['2016-12-31T23:59:60.5Z', '2017-01-01 00:00:00.000000+00'],
    ['2016-12-31T18:59:60.999999999-05:00', '2017-01-01 00:00:00.000000+00'],
    ['2017-01-01T05:29:60+05:30', '2017-01-01 00:00:00.000000+00'],
    // Fractions finer than a microsecond round up to the next one (carrying if they must).
    ['2024-01-01T00:00:00.0000001Z', '2024-01-01 00:00:00.000001+00'],
    ['2024-01-01T00:00:00.000001000000000000000000000000000000Z', '2024-01-01 00:00:00.000001+00'],
    ['2024-01-01T00:00:00.1234565Z', '2024-01-01 00:00:00.123457+00'],
    ['2024-12-31T23:59:59.99999999999999999999Z', '2025-01-01 00:00:00.000000+00'],
    // Years 0000 and past 9999, lower-case t and z.
    ['0000-03-01T00:00:00Z', '0001-03-01 00:00:00.000000+00 BC'],
    ['0001-01-01T00:00:00+00:01', '0001-12-31 23:59:00.000000+00 BC'],
    ['9999-12-31T23:59:60.5Z', '10000-01-01 00:00:00.000000+00'],
    ['2024-06-01t12:00:00z', '2024-06-01 12:00:00.000000+00'],
  ])('%s is the instant %s', (text, instant) => {
    expect(contractAccepts.createdFrom(text)).toBe(true);
    expect(databaseInstant(text)).toBe(instant);
  });
});

/** Whether the database's text of an instant lies in years 0001-9999 (what the contract's date-time can write back). */
const withinYears1To9999 = (instant: string) => instant[4] === '-' && !instant.endsWith(' BC');

describe('what the import stores of a date-time or a date', () => {
  it(`stores exactly the date-times whose instant lies in years 0001-9999 (${RUNS} edge forms and near misses)`, () => {
    fc.assert(
      fc.property(dateTimeLike, ({ text, valid }) => {
        const instant = databaseInstant(text);
        const stored = storedInstant(text);
        expect(stored !== undefined, text).toBe(valid && withinYears1To9999(instant!));
        // As written, or the instant in UTC.
        if (stored !== undefined) expect([text, instant]).toContain(stored);
      }),
      { numRuns: RUNS },
    );
  });

  it.each([
    ['2024-02-29', true],
    ['0001-01-01', true],
    ['9999-12-31', true],
    ['2023-02-29', false],
    ['1900-02-29', false],
    ['2000-02-29', true],
    ['2024-04-31', false],
    ['0000-06-15', false],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-01-00', false],
    ['2024-1-01', false],
    ['12024-01-01', false],
    ['2024-01-01T00:00:00Z', false],
    [' 2024-01-01', false],
  ])('the date %s is storable: %s', (text, storable) => {
    expect(isStorableDate(text)).toBe(storable);
  });
});

describe('the contract and the domain agree on what a UUID is', () => {
  it(`accept and refuse the same strings (${RUNS} forms), in the body and in the path`, () => {
    fc.assert(
      fc.property(uuidLike, ({ text, valid }) => {
        expect(contractAccepts.personId(text), text).toBe(valid);
        expect(contractAccepts.personIdPath(text), text).toBe(valid);
        expect(canonicalUuid(text), text).toBe(valid ? text.toLowerCase() : undefined);
      }),
      { numRuns: RUNS },
    );
  });
});

describe.each(engines)('the database reads a date-time as the domain does (%s)', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine, { migrate: false });
  });
  afterAll(() => database?.drop());

  // What PostgreSQL can read itself: offsets up to ±15:59, at most microseconds, no leap
  // second, year 0001 or later. There, its instant and the domain's must be one.
  const readableByPostgres = rfc3339.filter((text) => {
    const m = /^(\d{4}).*:(\d\d)(?:\.(\d+))?(?:[Zz]|[+-](\d\d):\d\d)$/.exec(text)!;
    return m[1] !== '0000' && m[2] !== '60' && (m[3] ?? '').length <= 6 && Number(m[4] ?? 0) <= 15;
  });

  it('for every date-time both can read', async () => {
    const samples = fc.sample(readableByPostgres, 300);
    const rows = await database.db.query<{ text: string; same: boolean }>(
      `SELECT t.text, t.text::timestamptz = t.ours::timestamptz AS same FROM unnest($1::text[], $2::text[]) AS t(text, ours)`,
      [samples, samples.map((text) => databaseInstant(text)!)],
    );
    expect(rows.filter((r) => !r.same).map((r) => r.text)).toEqual([]);
    expect(rows).toHaveLength(samples.length);
  });

  it('as the import stores it, as written or in UTC', async () => {
    const samples = fc.sample(rfc3339, 300).filter((text) => storedInstant(text) !== undefined);
    const rows = await database.db.query<{ text: string; same: boolean }>(
      `SELECT t.text, t.stored::timestamptz = t.ours::timestamptz AS same FROM unnest($1::text[], $2::text[], $3::text[]) AS t(text, stored, ours)`,
      [samples, samples.map((text) => storedInstant(text)!), samples.map((text) => databaseInstant(text)!)],
    );
    expect(rows.filter((r) => !r.same).map((r) => r.text)).toEqual([]);
    expect(rows).toHaveLength(samples.length);
  });

  it('and reads every date the import stores as that date', async () => {
    const dates = fc
      .sample(rfc3339, 300)
      .map((text) => text.slice(0, 10))
      .filter(isStorableDate);
    const rows = await database.db.query<{ text: string }>(`SELECT x AS text FROM unnest($1::text[]) AS x WHERE x::date::text <> x`, [dates]);
    expect(rows).toEqual([]);
    expect(dates.length).toBeGreaterThan(200);
  });

  it('and it reads every instant the domain writes, edge forms included', async () => {
    const samples = fc.sample(rfc3339, 300).map((text) => databaseInstant(text)!);
    const rows = await database.db.query<{ n: number }>(`SELECT count(x::timestamptz)::int AS n FROM unnest($1::text[]) AS x`, [samples]);
    expect(rows[0]!.n).toBe(samples.length);
  });
});
