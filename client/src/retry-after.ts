/**
 * Milliseconds to wait from a `Retry-After` header: delay-seconds (what this service sends)
 * or an HTTP-date (what a proxy in between may send). undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
