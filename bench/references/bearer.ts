// The bearer token of the bare references, read as the service's hot path reads it: parse
// the header, SHA-256 the token (as the database holds it); and the hello path they answer.
import { hashTokenBase64 } from '../../server/domain/tokens.js';

const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/;

/** The hello path every reference answers (its company id captured). */
export const HELLO_PATH = /^\/v1\/companies\/([A-Za-z0-9][A-Za-z0-9_-]{0,63})\/hello$/;

/** The token of an `Authorization: Bearer …` header, hashed as the database holds it; undefined for anything else. */
export function bearerTokenHash(header: string | undefined): string | undefined {
  const match = header ? BEARER.exec(header) : null;
  return match ? hashTokenBase64(match[1]!) : undefined;
}
