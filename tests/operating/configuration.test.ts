// Settings that keep an operator out of trouble: sandbox and production refuse to start on
// an in-memory database (it would lose every record at restart), and the settings added
// for serving behind a balancer and for browsers refuse what they cannot mean.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { auditDurabilityFor, ConfigError, loadConfig, requirePersistentStorage } from '../../server/config.js';
import { throwawayDatabase } from '../helpers/databases.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `npm start`'s entry point (node directly, as operators do) and collects what it says. */
function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('persistent storage outside development', () => {
  it.each(['production', 'sandbox'])(
    'APP_ENV=%s without DATABASE_URL or PGLITE_DATA_DIR: refuses to start, saying what to set',
    async (environment) => {
      const { code, output } = await start({ APP_ENV: environment });
      expect(code).toBe(1);
      expect(output).toContain(`configuration error: APP_ENV=${environment} needs a database that survives a restart: set DATABASE_URL`);
      expect(output).toContain('PGLITE_DATA_DIR');
      expect(output).not.toContain('listening');
    },
    90_000,
  );

  it('is required only where the service opens its own database', async () => {
    expect(() => requirePersistentStorage(loadConfig({ APP_ENV: 'production' }))).toThrow(ConfigError);
    await expect(createApp(loadConfig({ APP_ENV: 'production', LOG_LEVEL: 'silent' }))).rejects.toThrow(/DATABASE_URL/);
    for (const env of [
      { APP_ENV: 'production', DATABASE_URL: 'postgres://db/lookup' },
      { APP_ENV: 'sandbox', PGLITE_DATA_DIR: '/var/lib/lookup' },
      { APP_ENV: 'development' },
    ]) {
      expect(() => requirePersistentStorage(loadConfig(env))).not.toThrow();
    }
  });
});

describe('settings for browsers and balancers', () => {
  it('CORS_ORIGINS: origins as browsers send them, nothing else', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: ' https://hr.example.com, HTTP://Localhost:5173 ,https://a.example:443/' }).corsOrigins).toEqual([
      'https://hr.example.com',
      'http://localhost:5173',
      'https://a.example',
    ]);
    for (const bad of ['*', 'hr.example.com', 'https://hr.example.com/app', 'https://hr.example.com?x=1', 'null', 'file:///tmp']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
  });

  it('pages this machine serves may call in development only, and that is no setting', () => {
    expect(loadConfig({}).corsLoopback).toBe(true);
    expect(loadConfig({ APP_ENV: 'sandbox' }).corsLoopback).toBe(false);
    expect(loadConfig({ APP_ENV: 'production', CORS_ORIGINS: 'http://localhost:5173' }).corsLoopback).toBe(false);
  });

  it('TRUSTED_PROXIES: addresses and CIDR ranges only', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,::1, fd00::/8' }).trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    for (const bad of ['10.0.0.0/33', 'localhost', '10.0.0/8', '10.0.0.0/8/1', '::1/129', '*']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES/);
    }
  });

  it('KEEP_ALIVE_TIMEOUT_MS: a sane integer, shorter than SHUTDOWN_TIMEOUT_MS', () => {
    expect(loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '65000', SHUTDOWN_TIMEOUT_MS: '70000' }).keepAliveTimeoutMs).toBe(65_000);
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(/KEEP_ALIVE_TIMEOUT_MS/);
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '65000' })).toThrow(/KEEP_ALIVE_TIMEOUT_MS.*SHUTDOWN_TIMEOUT_MS/);
  });
});

describe('the change feed', () => {
  it('CHANGES_RETENTION: 30 days unless set; a duration from 1h to 3650d, anything else refused naming it', () => {
    expect(loadConfig({}).changesRetentionMs).toBe(30 * 86_400_000);
    expect(loadConfig({ CHANGES_RETENTION: '7d' }).changesRetentionMs).toBe(7 * 86_400_000);
    expect(loadConfig({ CHANGES_RETENTION: '1d12h' }).changesRetentionMs).toBe(36 * 3_600_000);
    expect(loadConfig({ CHANGES_RETENTION: '90m' }).changesRetentionMs).toBe(90 * 60_000);
    for (const bad of ['30', '30 days', '59m', '3651d', '-1d', 'forever'])
      expect(() => loadConfig({ CHANGES_RETENTION: bad }), bad).toThrow(/^CHANGES_RETENTION must be a duration such as 30d.*got "/);
  });
});

describe('access audit durability and spool', () => {
  it('AUDIT_DURABILITY: spool on PostgreSQL and commit on PGlite unless set; spool only on PostgreSQL', () => {
    const unset = loadConfig({});
    expect(unset.auditDurability).toBeUndefined();
    expect(auditDurabilityFor(unset, 'postgres')).toBe('spool');
    expect(auditDurabilityFor(unset, 'pglite')).toBe('commit');
    for (const durability of ['commit', 'flush'] as const) {
      expect(auditDurabilityFor(loadConfig({ AUDIT_DURABILITY: durability }), 'postgres')).toBe(durability);
    }
    expect(auditDurabilityFor(loadConfig({ AUDIT_DURABILITY: 'spool', DATABASE_URL: 'postgres://db/lookup' }), 'postgres')).toBe('spool');
    expect(() => loadConfig({ AUDIT_DURABILITY: 'spool' })).toThrow(/AUDIT_DURABILITY=spool needs PostgreSQL \(DATABASE_URL\)/);
    expect(() => loadConfig({ AUDIT_DURABILITY: 'spool', PGLITE_DATA_DIR: '/var/lib/lookup' })).toThrow(/AUDIT_DURABILITY=spool needs PostgreSQL/);
    expect(() => auditDurabilityFor({ auditDurability: 'spool' }, 'pglite')).toThrow(ConfigError);
    expect(() => loadConfig({ AUDIT_DURABILITY: 'file' })).toThrow(/AUDIT_DURABILITY must be one of spool, commit, flush; got "file"/);
  });

  it('AUDIT_SPOOL_DIR: var/audit-spool under the working directory unless set; relative paths from there', () => {
    expect(loadConfig({}).auditSpoolDir).toBe(resolve('var/audit-spool'));
    expect(loadConfig({ AUDIT_SPOOL_DIR: 'spool' }).auditSpoolDir).toBe(resolve('spool'));
    expect(loadConfig({ AUDIT_SPOOL_DIR: '/srv/lookup/spool' }).auditSpoolDir).toBe('/srv/lookup/spool');
  });

  it('refuses to start, saying why, with AUDIT_DURABILITY=spool on the embedded database', async () => {
    const { code, output } = await start({ AUDIT_DURABILITY: 'spool' });
    expect(code).toBe(1);
    expect(output).toContain('configuration error: AUDIT_DURABILITY=spool needs PostgreSQL (DATABASE_URL)');
    expect(output).not.toContain('listening');
  }, 90_000);

  it.runIf(process.env.DATABASE_URL)(
    'refuses to start, saying why, when AUDIT_SPOOL_DIR cannot hold files',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'audit-spool-config-'));
      const file = join(dir, 'a-file');
      writeFileSync(file, '');
      const database = await throwawayDatabase('postgres');
      const { code, output } = await start({ DATABASE_URL: database.url!, AUDIT_SPOOL_DIR: join(file, 'spool') }).finally(() => {
        rmSync(dir, { recursive: true, force: true });
        return database.drop();
      });
      expect(code).toBe(1);
      expect(output).toContain(`configuration error: AUDIT_SPOOL_DIR (${join(file, 'spool')}) cannot hold the access audit spool`);
      expect(output).not.toContain('listening');
    },
    90_000,
  );
});
