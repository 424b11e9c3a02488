// Defaults that keep a deployment out of trouble, as the configuration reads them:
// NODE_ENV=production is not a development start, and only loopback addresses count as
// private for the demo tokens. The processes that start with them are
// safe-defaults.slow.test.ts's.
import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, loadConfig } from '../../server/config.js';

describe('safe defaults', () => {
  it.each([{}, { APP_ENV: 'development' }, { APP_ENV: '' }])('NODE_ENV=production with %j is refused, naming both variables', (env) => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', ...env })).toThrow(
      /^NODE_ENV=production but APP_ENV is (unset \(development\)|development): set APP_ENV=production/,
    );
  });

  it('NODE_ENV=production starts where APP_ENV says where it runs, and any other NODE_ENV changes nothing', () => {
    expect(loadConfig({ NODE_ENV: 'production', APP_ENV: 'production', DATABASE_URL: 'postgres://db-1/lookup' }).environment).toBe('production');
    expect(loadConfig({ NODE_ENV: 'production', APP_ENV: 'sandbox' }).environment).toBe('sandbox');
    expect(loadConfig({ NODE_ENV: 'development' }).environment).toBe('development');
    expect(loadConfig({ NODE_ENV: 'test' }).environment).toBe('development');
  });

  it('counts 127.0.0.0/8, ::1 and localhost as loopback, and nothing else', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.20', 'lookup.internal', '::ffff:10.0.0.1', '128.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('serves the demo tokens beyond loopback only when DEMO_ON_ALL_INTERFACES says so', () => {
    expect(loadConfig({}).demoOnAllInterfaces).toBe(false);
    expect(loadConfig({ DEMO_ON_ALL_INTERFACES: '1' }).demoOnAllInterfaces).toBe(true);
    expect(() => loadConfig({ DEMO_ON_ALL_INTERFACES: 'yes' })).toThrow('DEMO_ON_ALL_INTERFACES must be true or false; got "yes"');
    expect(loadConfig({ HOST: '' }).host).toBe('127.0.0.1');
  });

  it('refuses a malformed URL in any *_URL variable without quoting it (it may hold a password)', () => {
    for (const [name, value] of [
      ['DATABASE_URL', 'postgres://user:s3cret@'],
      ['DATABASE_DIRECT_URL', 'http://user:s3cret@db-1/lookup'],
      ['DATABASE_REPLICA_URLS', 'postgres://db-1/lookup,user:s3cret@db-2'],
      ['REDIS_URL', 'redis-1:6379?password=s3cret'],
    ]) {
      const load = () => loadConfig({ DATABASE_URL: 'postgres://db-0/lookup', [name!]: value! });
      expect(load, name).toThrow(new RegExp(`^${name} must `));
      expect(load, name).not.toThrow(/s3cret/);
    }
    expect(loadConfig({ DATABASE_URL: 'postgresql:///lookup?host=/var/run/postgresql' }).databaseUrl).toContain('host=');
  });
});
