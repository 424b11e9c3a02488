// X-Request-Id: the caller's own when it is a sane token, otherwise a fresh UUID (v4).
import { randomFillSync } from 'node:crypto';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE.test(header) ? header : newRequestId();
}

// UUIDs are written as text a batch at a time, into one string that each is sliced from:
// crypto.randomUUID joins each of its 36 characters into the string in JavaScript, and the
// joined string is copied flat again when the header is written.
const BATCH = 256;
const UUID_LENGTH = 36;
const DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const random = Buffer.alloc(BATCH * 16);
const text = Buffer.alloc(BATCH * UUID_LENGTH);
let batch = '';
let next = BATCH;

/** A fresh request id, for an answer whose request could not be read for one. */
export function newRequestId(): string {
  if (next === BATCH) refill();
  const start = next++ * UUID_LENGTH;
  return batch.slice(start, start + UUID_LENGTH);
}

function refill(): void {
  randomFillSync(random);
  for (let uuid = 0, bytes = 0, at = 0; uuid < BATCH; uuid++, bytes += 16) {
    random[bytes + 6] = (random[bytes + 6]! & 0x0f) | 0x40; // version 4
    random[bytes + 8] = (random[bytes + 8]! & 0x3f) | 0x80; // RFC 9562 variant
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = 0x2d; // -
      const byte = random[bytes + i]!;
      text[at++] = DIGITS[byte >> 4]!;
      text[at++] = DIGITS[byte & 15]!;
    }
  }
  batch = text.toString('latin1');
  next = 0;
}
