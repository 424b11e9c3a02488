// Time left on a credential's rotation overlap is shown rounded down: a second short of a
// day is 23h59m59s, never "1d" (which would promise more than is left).
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../server/domain/durations.js';

describe('formatDuration', () => {
  it('writes days, hours, minutes and seconds, leaving out the units that are zero', () => {
    expect(formatDuration(86_400_000)).toBe('1d');
    expect(formatDuration(36 * 3_600_000 + 61_000)).toBe('1d12h1m1s');
  });

  it('rounds down to whole seconds', () => {
    expect(formatDuration(86_399_600)).toBe('23h59m59s');
    expect(formatDuration(1_999)).toBe('1s');
    expect(formatDuration(999)).toBe('0s');
    expect(formatDuration(-5)).toBe('0s');
  });
});
