// Phone numbers are compared in E.164 form. Stored phones are normalized on import and
// search queries are normalized the same way, so "(415) 555-0132" finds "+14155550132"
// (docs/decisions/0003-phone-normalization.md).
// Input is taken as people paste it: surrounding or repeated white space of any kind
// (non-breaking spaces, tabs, a trailing newline), the invisible marks web pages carry
// (zero-width spaces, direction marks) and RFC 3966 `tel:` URIs
// (`tel:+1-617-750-3975;ext=12`, `tel:617-750-3975;phone-context=+1`). An extension is
// accepted and ignored: E.164 has none.
import { type CountryCode, getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * A North American number already in E.164 (+1, then ten digits, the first 2–9): its own
 * E.164 form, whatever the default region. libphonenumber reads it under the plan of
 * calling code 1, whose national prefix (1) it cannot start with, so nothing is stripped,
 * and ten digits is a possible length in every country of that code. Most stored phones
 * look like this, and parsing them is most of an import's phone cost. A property test
 * holds this equal to the full parse (tests/domain/phoneFastPath.test.ts).
 */
const NANP_E164 = /^\+1[2-9]\d{9}$/;

/**
 * A North American number as people write it at home, (415) 555-0132, 415-555-0132,
 * 415.555.0132 or 4155550132, read with a default region of calling code 1: +1 and its
 * ten digits, as libphonenumber reads it (the same property test), at a fraction of the
 * cost. Searches by phone are mostly written like this.
 */
const NANP_NATIONAL = /^(?:\(([2-9]\d\d)\) ?|([2-9]\d\d)[-. ]?)(\d{3})[-. ]?(\d{4})$/;
const NANP_REGIONS: ReadonlySet<string> = new Set(getCountries().filter((region) => getCountryCallingCode(region) === '1'));

/** The E.164 form of `input`, or undefined when it is not a possible phone number. */
export function toE164(input: string, defaultRegion: string): string | undefined {
  if (NANP_E164.test(input)) return input;
  if (NANP_REGIONS.has(defaultRegion)) {
    const national = NANP_NATIONAL.exec(input);
    if (national) return `+1${national[1] ?? national[2]}${national[3]}${national[4]}`;
  }
  return parsedE164(input, defaultRegion);
}

/** toE164 by libphonenumber alone, every time (the fast path's reference). */
export function parsedE164(input: string, defaultRegion: string): string | undefined {
  const parsed = parsePhoneNumberFromString(asPasted(input), { defaultCountry: defaultRegion as CountryCode, extract: false });
  return parsed?.isPossible() ? parsed.number : undefined;
}

/** `input` without the wrapping people paste around a number. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

function asPasted(input: string): string {
  const text = input.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
  const tel = /^tel:([^;]*)((?:;[^;]*)*)$/i.exec(text);
  if (!tel) return text;
  // RFC 3966: a local number's `phone-context` that starts with + is its country prefix.
  const params = tel[2]!.split(';').slice(1);
  const context = params.find((p) => /^phone-context=\+/i.test(p))?.slice('phone-context='.length);
  const ext = params.find((p) => /^ext=/i.test(p))?.slice('ext='.length);
  return `${context ?? ''}${tel[1]}${ext ? ` ext. ${ext}` : ''}`;
}
