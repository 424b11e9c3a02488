// toE164 answers North American numbers already in E.164, and (with a default region of
// calling code 1) those written nationally, without parsing them (server/domain/phone.ts).
// That is only allowed because it gives what libphonenumber gives: checked here on random
// and edge inputs, in and out of the fast paths' forms, for several default regions (an
// unknown one included) and every region of calling code 1.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsedE164, toE164 } from '../../server/domain/phone.js';

const regions = ['US', 'CA', 'GB', 'DE', 'BR', 'IN', 'JP', 'BS', 'XX', ''];
/** Every region of calling code 1 (libphonenumber's metadata), and a few others. */
const nanp = [
  'AG',
  'AI',
  'AS',
  'BB',
  'BM',
  'BS',
  'CA',
  'DM',
  'DO',
  'GD',
  'GU',
  'JM',
  'KN',
  'KY',
  'LC',
  'MP',
  'MS',
  'PR',
  'SX',
  'TC',
  'TT',
  'US',
  'VC',
  'VG',
  'VI',
];
const nationalRegions = [...nanp, 'GB', 'MX', 'XX', ''];
const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

describe('the E.164 fast path of toE164', () => {
  it('equals the full parse on numbers of its form', () => {
    fc.assert(
      fc.property(fc.constantFrom(...'23456789'), digits(9, 9), fc.constantFrom(...regions), (first, rest, region) => {
        const input = `+1${first}${rest}`;
        expect(toE164(input, region)).toBe(input);
        expect(parsedE164(input, region)).toBe(input);
      }),
      { numRuns: 3000 },
    );
  });

  it('equals the full parse for every area code and first digit of the exchange', () => {
    for (let area = 200; area <= 999; area++)
      for (let exchange = 0; exchange <= 9; exchange++) {
        const input = `+1${area}${exchange}${String((area * 7919 + exchange * 104729) % 1_000_000).padStart(6, '0')}`;
        expect(parsedE164(input, 'US')).toBe(input);
      }
  });

  it('equals the full parse on anything near its form', () => {
    const near = fc.oneof(
      fc.tuple(fc.constantFrom('+1', '+', '1', '+01', '+11', '+10', '+44', '＋1', ' +1', '+1 '), digits(0, 12)).map(([a, b]) => a + b),
      fc.tuple(digits(1, 4), fc.constantFrom(' ', '-', '.', '\u00a0', '\n', ''), digits(0, 11)).map(([a, s, b]) => `+1${a}${s}${b}`),
      fc.string({ unit: fc.constantFrom(...'+1234567890 -()x'), maxLength: 16 }),
    );
    fc.assert(
      fc.property(near, fc.constantFrom(...regions), (input, region) => {
        expect(toE164(input, region)).toBe(parsedE164(input, region));
      }),
      { numRuns: 5000 },
    );
  });

  it.each(['+12025550123', '+19999999999', '+12000000000', '+11025550123', '+10025550123', '+1202555012', '+120255501234', '+1202555012a', '+1202555012\n'])(
    '%j comes out as libphonenumber says',
    (input) => {
      for (const region of regions) expect(toE164(input, region)).toBe(parsedE164(input, region));
    },
  );
});

describe('the national fast path of toE164', () => {
  const separator = fc.constantFrom('', ' ', '-', '.', '  ', '/', '\u00a0', '–');
  it('equals the full parse on numbers of its form, in every region of calling code 1 and others', () => {
    const written = fc
      .tuple(fc.constantFrom(...'0123456789'), digits(2, 2), digits(3, 3), digits(4, 4), separator, separator, fc.boolean())
      .map(([first, area, exchange, line, a, b, parens]) =>
        parens ? `(${first}${area})${a}${exchange}${b}${line}` : `${first}${area}${a}${exchange}${b}${line}`,
      );
    fc.assert(
      fc.property(written, fc.constantFrom(...nationalRegions), (input, region) => {
        expect(toE164(input, region)).toBe(parsedE164(input, region));
      }),
      { numRuns: 20_000 },
    );
  });

  it('equals the full parse for every area code, in every region of calling code 1', () => {
    for (const region of nanp)
      for (let area = 100; area <= 999; area++) {
        const line = String((area * 7919) % 10_000).padStart(4, '0');
        for (const input of [`(${area}) 555-${line}`, `${area}-055-${line}`, `${area}.155.${line}`, `${area}555${line}`]) {
          expect(toE164(input, region), `${input} in ${region}`).toBe(parsedE164(input, region));
        }
      }
  });

  it('equals the full parse on anything near its form', () => {
    const near = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789 -.()+'), minLength: 7, maxLength: 16 }),
      fc.tuple(digits(3, 3), digits(3, 3), digits(3, 5)).map(([a, b, c]) => `(${a}) ${b}-${c}`),
      fc.tuple(fc.constantFrom('1', '1 ', '+1 ', '(', ')', ' ', '1-'), digits(3, 3), digits(7, 7)).map(([p, a, b]) => `${p}${a}${b}`),
    );
    fc.assert(
      fc.property(near, fc.constantFrom(...nationalRegions), (input, region) => {
        expect(toE164(input, region)).toBe(parsedE164(input, region));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    '(415) 555-0132',
    '415-555-0132',
    '415.555.0132',
    '4155550132',
    '(415)555-0132',
    '(015) 555-0132',
    '(115) 555-0132',
    '(415 555-0132',
    '415) 555-0132',
  ])('%j comes out as libphonenumber says', (input) => {
    for (const region of nationalRegions) expect(toE164(input, region)).toBe(parsedE164(input, region));
    expect(toE164('(415) 555-0132', 'US')).toBe('+14155550132');
  });
});
