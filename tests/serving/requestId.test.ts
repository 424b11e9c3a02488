// The request id an answer carries when the caller sent no usable one: a version 4 UUID,
// a new one each time, across the batches they are made in.
import { describe, expect, it } from 'vitest';
import { requestIdOf } from '../../server/http/requestId.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it('makes a fresh version 4 UUID for each request without a usable id', () => {
    const ids = Array.from({ length: 2_000 }, (_, i) => requestIdOf(i % 2 ? undefined : 'a b'));
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('spreads its random bits over every digit but the version and variant', () => {
    const ids = Array.from({ length: 1_000 }, () => requestIdOf(undefined).replaceAll('-', ''));
    for (let digit = 0; digit < 32; digit++) {
      const seen = new Set(ids.map((id) => id[digit]));
      if (digit === 12) expect([...seen]).toEqual(['4']);
      else if (digit === 16) expect(seen.size).toBe(4);
      else expect(seen.size).toBe(16);
    }
  });

  it('keeps a sane id of the caller’s own', () => {
    expect(requestIdOf('trace-42.abc')).toBe('trace-42.abc');
    expect(requestIdOf(['a', 'b'])).toMatch(UUID_V4);
  });
});
