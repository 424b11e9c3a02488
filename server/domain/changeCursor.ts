// A position of the change feed as consumers hold it: a change's `position` and a page's
// `next`, sent back as `after` (webhooks' `replay --from` takes the same text). Opaque by
// contract (its form may change between releases), so it is made unlike a number: a
// version letter and the position in base 36, base64url-encoded.
const VERSION = 'f';
const BODY = /^f([0-9a-z]{1,13})$/;
/** Positions are bigint in the database; 2^63 - 1 in base 36 is 13 digits. */
const MAX_POSITION = 2n ** 63n - 1n;

export function encodeChangeCursor(position: bigint): string {
  return Buffer.from(`${VERSION}${position.toString(36)}`).toString('base64url');
}

/** The position `cursor` names, or undefined when it is not one this service made. */
export function decodeChangeCursor(cursor: string): bigint | undefined {
  const match = BODY.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) return undefined;
  let position = 0n;
  for (const digit of match[1]!) position = position * 36n + BigInt(Number.parseInt(digit, 36));
  // Only the encoding encodeChangeCursor gives: no leading zeros, nothing past a bigint.
  if (position > MAX_POSITION || encodeChangeCursor(position) !== cursor) return undefined;
  return position;
}
