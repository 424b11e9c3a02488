// Phone numbers are compared in E.164 form. Stored phones are normalized on import and
// search queries are normalized the same way, so "(415) 555-0132" finds "+14155550132".
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** The E.164 form of `input`, or undefined when it is not a possible phone number. */
export function toE164(input: string, defaultRegion: string): string | undefined {
  const parsed = parsePhoneNumberFromString(input, { defaultCountry: defaultRegion as CountryCode, extract: false });
  return parsed && parsed.isPossible() ? parsed.number : undefined;
}
