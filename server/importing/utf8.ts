// Text is UTF-8 or refused: an import file's bytes are checked before they become strings
// (a lossy decode would store U+FFFD that the file never held). A byte-order mark of
// another encoding at the start is named as such; a UTF-8 one is allowed. Where bytes are
// not UTF-8, the first bad byte is found and the problem named, for the operator to fix.
import { isUtf8 } from 'node:buffer';

/** The UTF-8 encoding of U+FEFF: a byte-order mark when it starts a file (allowed, and skipped). */
export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Compressed files and archives by their magic bytes: each read as text would be hundreds of "not UTF-8" lines. */
const COMPRESSED: [bytes: number[], what: string][] = [
  [[0x1f, 0x8b], 'gzip-compressed (decompress it first: gunzip)'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (extract the file first: unzip)'],
  [[0x42, 0x5a, 0x68], 'bzip2-compressed (decompress it first: bunzip2)'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz-compressed (decompress it first: unxz)'],
  [[0x28, 0xb5, 0x2f, 0xfd], 'zstd-compressed (decompress it first: unzstd)'],
];

/**
 * Why a file that starts with these bytes is not UTF-8 text at all: compressed, another
 * encoding's byte-order mark, or the zero bytes of UTF-16 or UTF-32 text without one (a
 * JSON file starts with ASCII). Undefined when the start gives no such sign.
 */
export function otherEncoding(start: Uint8Array): string | undefined {
  const compressed = COMPRESSED.find(([magic]) => magic.every((byte, i) => start[i] === byte));
  if (compressed) return `the file is ${compressed[1]}: the import reads NDJSON or a JSON array as UTF-8 text`;
  const [a, b, c, d] = start;
  if (a === 0x00 && b === 0x00 && c === 0xfe && d === 0xff) return 'UTF-32 BE byte-order mark: the file must be UTF-8';
  if (a === 0xff && b === 0xfe && c === 0x00 && d === 0x00) return 'UTF-32 LE byte-order mark: the file must be UTF-8';
  if (a === 0xfe && b === 0xff) return 'UTF-16 BE byte-order mark: the file must be UTF-8';
  if (a === 0xff && b === 0xfe) return 'UTF-16 LE byte-order mark: the file must be UTF-8';
  if (start.length < 4) return undefined;
  // Zero bytes where ASCII would be: 'x' a non-zero byte, '0' a zero one.
  const zeros = [a, b, c, d].map((byte) => (byte === 0x00 ? '0' : 'x')).join('');
  const guessed = { x000: 'UTF-32 LE', '000x': 'UTF-32 BE', x0x0: 'UTF-16 LE', '0x0x': 'UTF-16 BE' }[zeros];
  if (guessed) return `zero bytes as in ${guessed} text without a byte-order mark: the file must be UTF-8`;
  return undefined;
}

/** Whether bytes[from, to) are UTF-8 (the fast check: SIMD, no string made). */
export function isUtf8Range(bytes: Uint8Array, from = 0, to = bytes.length): boolean {
  return isUtf8(bytes.subarray(from, to));
}

export interface InvalidUtf8 {
  /** Index in `bytes` of the first byte that is not UTF-8. */
  at: number;
  /** What is wrong there, in the operator's terms. */
  problem: string;
}

const hex = (byte: number) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
const latin1Hint = ' (is the file Latin-1 or Windows-1252? it must be UTF-8)';

/**
 * The first place in bytes[from, to) that is not UTF-8, and why; undefined when they are.
 * A sequence cut short by `to` counts as invalid (`to` ends a line or the file).
 */
export function invalidUtf8(bytes: Uint8Array, from = 0, to = bytes.length): InvalidUtf8 | undefined {
  if (isUtf8Range(bytes, from, to)) return undefined;
  for (let i = from; i < to; ) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    if (lead < 0xc0) return { at: i, problem: `byte ${hex(lead)} continues a character that never started${latin1Hint}` };
    if (lead < 0xc2) return { at: i, problem: `byte ${hex(lead)} starts an overlong encoding, which UTF-8 forbids` };
    if (lead > 0xf4) return { at: i, problem: `byte ${hex(lead)} never occurs in UTF-8${latin1Hint}` };
    const length = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    // The second byte's range depends on the lead (no overlong forms, no surrogates, nothing past U+10FFFF).
    const [low, high] =
      lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    for (let k = 1; k < length; k++) {
      if (i + k >= to) return { at: i, problem: `byte ${hex(lead)} starts a ${length}-byte character that the line or file cuts short${latin1Hint}` };
      const next = bytes[i + k]!;
      const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (next < 0x80 || next > 0xbf) return { at: i, problem: `byte ${hex(lead)} starts a ${length}-byte character but ${hex(next)} follows it${latin1Hint}` };
      if (next < min || next > max) {
        const what =
          lead === 0xed
            ? 'a UTF-16 surrogate, which UTF-8 forbids'
            : lead === 0xf4
              ? 'a code point past U+10FFFF'
              : 'an overlong encoding, which UTF-8 forbids';
        return { at: i, problem: `bytes ${hex(lead)} ${hex(next)} start ${what}` };
      }
    }
    i += length;
  }
  // (isUtf8 and this scan agree; kept for safety should they not.)
  return { at: from, problem: 'not UTF-8' };
}
