// DATABASE_REPLICA_URLS and the settings that go with it: what is refused at start, and why.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';

const primary = 'postgres://lookup@primary:5432/lookup';
const replicas = 'postgres://lookup@replica-1:5432/lookup, postgresql://lookup@replica-2/lookup';

describe('replica configuration', () => {
  it('reads a comma-separated list of PostgreSQL URLs; unset, none', () => {
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: replicas }).replicaUrls).toEqual([
      'postgres://lookup@replica-1:5432/lookup',
      'postgresql://lookup@replica-2/lookup',
    ]);
    expect(loadConfig({ DATABASE_URL: primary }).replicaUrls).toEqual([]);
  });

  it('takes the lag bound and the check timeout within their ranges', () => {
    expect(loadConfig({ DATABASE_URL: primary })).toMatchObject({ replicaMaxLagMs: 5_000, replicaCheckTimeoutMs: 750 });
    expect(loadConfig({ DATABASE_URL: primary, REPLICA_CHECK_TIMEOUT_MS: '2000' }).replicaCheckTimeoutMs).toBe(2_000);
    for (const bad of ['10', '60001', 'soon'])
      expect(() => loadConfig({ DATABASE_URL: primary, REPLICA_CHECK_TIMEOUT_MS: bad })).toThrow(/REPLICA_CHECK_TIMEOUT_MS/);
  });

  it('refuses replicas without a PostgreSQL primary: the embedded database has none', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: replicas })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: replicas })).toThrow(/DATABASE_REPLICA_URLS needs DATABASE_URL/);
  });

  it('refuses an entry that is not a PostgreSQL URL, without echoing it (it may hold a password)', () => {
    for (const bad of ['standby-9:6543', 'mysql://replica/x', 'postgres://:5432/x']) {
      let message = '';
      try {
        loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: `${bad},postgres://ok/x` });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toMatch(/DATABASE_REPLICA_URLS must hold PostgreSQL connection strings/);
      expect(message).not.toContain(bad);
    }
  });

  it('refuses audit durabilities that write in the read statement: a standby takes no writes', () => {
    for (const durability of ['commit', 'flush'])
      expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: replicas, AUDIT_DURABILITY: durability })).toThrow(/use spool/);
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: replicas, AUDIT_DURABILITY: 'spool' }).auditDurability).toBe('spool');
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: replicas, AUDIT_DURABILITY: 'commit', AUDIT_ENABLED: 'false' })).not.toThrow();
  });
});
