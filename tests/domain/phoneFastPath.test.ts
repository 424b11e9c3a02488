// toE164 answers North American numbers already in E.164 without parsing them
// (server/domain/phone.ts). That is only allowed because it gives what libphonenumber
// gives: checked here on random and edge inputs, in and out of the fast path's form, for
// several default regions (an unknown one included).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsedE164, toE164 } from '../../server/domain/phone.js';

const regions = ['US', 'CA', 'GB', 'DE', 'BR', 'IN', 'JP', 'BS', 'XX', ''];
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
