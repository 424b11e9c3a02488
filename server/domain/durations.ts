// Durations and instants as operators type them on the command line: `30m`, `24h`,
// `7d`, `1d12h`; an instant as RFC 3339 with an offset, or a duration from now.

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION = /^(?:\d{1,6}[smhdw])+$/;

/** Milliseconds, or undefined when `text` is not a duration such as `90m`, `24h`, `7d` or `1d12h` (`0` is none). */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (!DURATION.test(text)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([smhdw])/g)) ms += Number(amount) * UNIT_MS[unit!]!;
  return ms;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** An instant written as RFC 3339 with an offset (`2027-01-31T00:00:00Z`) or as a duration from `now` (`90d`). */
export function parseInstant(text: string, now = Date.now()): Date | undefined {
  const duration = parseDuration(text);
  if (duration !== undefined) return new Date(now + duration);
  if (!RFC3339.test(text)) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `1d12h`-style text for a number of milliseconds, in whole seconds rounded down: time left is never overstated. */
export function formatDuration(ms: number): string {
  let rest = Math.floor(ms / 1000);
  if (rest <= 0) return '0s';
  let text = '';
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) {
      text += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return text;
}
