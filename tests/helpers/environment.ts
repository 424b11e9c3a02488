// What this run can test beyond PGlite, and a unique namespace per test file so that
// files running in parallel (and successive runs) never share a rate-limit budget.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const databaseUrl = process.env.DATABASE_URL || undefined;
export const redisUrl = process.env.REDIS_URL || undefined;

export function uniqueKeyPrefix(name: string): string {
  return `test:${name}:${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

/** Deletes every Redis key under the prefix (rate-limit keys also expire on their own). */
export async function dropRedisKeys(prefix: string): Promise<void> {
  if (!redisUrl) return;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export function redisTarget(): { host: string; port: number } {
  const url = new URL(redisUrl!);
  return { host: url.hostname, port: Number(url.port || 6379) };
}

export function postgresTarget(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 5432) };
}

/** The same connection string, pointed at another host and port (a proxy). */
export function viaPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}
