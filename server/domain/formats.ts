// The contract's `uuid` and `date-time` strings as the exact values they name, written the
// way both database engines read them. The contract (its `pattern`s) admits exactly the
// forms below; each has one meaning here, so that nothing it accepts can fail in the
// database:
//
//   uuid       8-4-4-4-12 hexadecimal digits, any case; written in lower case.
//   date-time  RFC 3339, `T`/`Z` in either case, any offset from -23:59 to +23:59 (the
//              database itself takes at most ±15:59), converted to the UTC instant it names:
//     - fraction  stored times have microsecond precision, so a finer fraction is rounded
//                 up to the next microsecond: as a lower bound (inclusive) and as an upper
//                 bound (exclusive) it then selects exactly what the exact instant would;
//     - leap second  `23:59:60` (UTC), with any fraction, is the first instant of the next
//                 minute: stored times, like POSIX time, have no leap seconds, so nothing lies
//                 between the two;
//     - year 0000 is 1 BC (proleptic Gregorian, as ISO 8601 counts), as is any instant an
//                 offset moves before year 1; one after year 9999 is year 10000.
// Both return undefined for anything else, which the caller answers 400.
//
// What the database stores (the import's records, server/importing/check.ts) must also be
// written back by the contract: a date-time's instant and a date lie in years 0001-9999.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

const MICROS_PER_SECOND = 1_000_000n;
const MINUTES_PER_DAY = 24 * 60;

/** Whether `text` is a UUID: 8-4-4-4-12 hexadecimal digits, any case. */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** The UUID in lower case, or undefined when `text` is not one. */
export function canonicalUuid(text: string): string | undefined {
  return isUuid(text) ? text.toLowerCase() : undefined;
}

const DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;

/** Whether `text` is a calendar date, `YYYY-MM-DD`, in years 0001-9999. */
export function isStorableDate(text: string): boolean {
  return DATE.test(text) && !text.startsWith('0000') && dayExists(text);
}

// Read by both engines as the instant it names, as it is written (formats.test.ts): an
// offset within ±15:59, at most microseconds, no leap second; years 0002-9998, which no
// offset moves out of 0001-9999. (Whether the day exists in its month is checked apart.)
const NATIVE_INSTANT =
  /^(?!000[01]|9999)\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,6})?(?:[Zz]|[+-](?:0\d|1[0-5]):[0-5]\d)$/;

/**
 * An RFC 3339 date-time as the database stores it: as written where both engines read it
 * as the instant it names, else that instant in UTC (databaseInstant); undefined when
 * `text` is not a date-time or its instant falls outside years 0001-9999.
 */
export function storedInstant(text: string): string | undefined {
  if (NATIVE_INSTANT.test(text) && dayExists(text)) return text;
  const instant = databaseInstant(text);
  return instant !== undefined && instant[4] === '-' && !instant.endsWith(' BC') ? instant : undefined;
}

/**
 * The UTC instant an RFC 3339 date-time names, at microsecond precision, as
 * `YYYY-MM-DD HH:MM:SS.ffffff+00` (with ` BC` before year 1), or undefined when `text` is
 * not a valid RFC 3339 date-time.
 */
export function databaseInstant(text: string): string | undefined {
  const micros = epochMicroseconds(text);
  return micros === undefined ? undefined : formatUtc(micros);
}

/** Microseconds since 1970-01-01T00:00:00Z, rounded up to the microsecond (see above). */
export function epochMicroseconds(text: string): bigint | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetMinutes = m[8] ? (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) : 0;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60 || Number(m[9] ?? 0) > 23 || Number(m[10] ?? 0) > 59) return undefined;
  const utcMinuteOfDay = (((hour * 60 + minute - offsetMinutes) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  const leapSecond = second === 60;
  if (leapSecond && utcMinuteOfDay !== MINUTES_PER_DAY - 1) return undefined;

  const wholeSeconds = BigInt(utcMidnightMilliseconds(year, month, day) / 1000 + hour * 3600 + (minute - offsetMinutes) * 60 + second);
  // A leap second's fraction is dropped: :60 already is the next minute's first instant.
  return wholeSeconds * MICROS_PER_SECOND + (leapSecond ? 0n : fractionMicrosRoundedUp(m[7] ?? ''));
}

function fractionMicrosRoundedUp(digits: string): bigint {
  const micros = BigInt(digits.slice(0, 6).padEnd(6, '0'));
  return /[1-9]/.test(digits.slice(6)) ? micros + 1n : micros; // may carry into the next second
}

/** Whether the day of a `YYYY-MM-DD…` text whose month is 01-12 and day 01-31 exists. */
function dayExists(text: string): boolean {
  const day = twoDigits(text, 8);
  return day <= 28 || day <= daysInMonth(twoDigits(text, 0) * 100 + twoDigits(text, 2), twoDigits(text, 5));
}

function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** Date.UTC for any year (it reads years 0-99 as 1900-1999). */
function utcMidnightMilliseconds(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

function formatUtc(micros: bigint): string {
  const seconds = micros / MICROS_PER_SECOND - (micros % MICROS_PER_SECOND < 0n ? 1n : 0n);
  const fraction = micros - seconds * MICROS_PER_SECOND;
  const date = new Date(Number(seconds) * 1000);
  const astronomicalYear = date.getUTCFullYear();
  const bc = astronomicalYear < 1;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return (
    `${pad(bc ? 1 - astronomicalYear : astronomicalYear, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(Number(fraction), 6)}+00${bc ? ' BC' : ''}`
  );
}
