// Where webhooks may go (server/webhooks/addresses.ts, targets.ts): https to public
// addresses only, every address a name resolves to checked; IPv4 inside IPv6 judged by
// its IPv4 address. WEBHOOK_ALLOW_PRIVATE_TARGETS lets plain http and any address through.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { nonPublicKind } from '../../server/webhooks/addresses.js';
import { resolveTarget, TargetRefused, targetUrl } from '../../server/webhooks/targets.js';

describe('webhook targets', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['0.0.0.0', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified or IPv4-compatible'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'unique local (private)'],
    ['::ffff:127.0.0.1', 'loopback (as IPv4 inside IPv6)'],
    ['::ffff:7f00:1', 'loopback (as IPv4 inside IPv6)'],
    ['::ffff:10.0.0.1', 'private (as IPv4 inside IPv6)'],
    ['::ffff:a9fe:a9fe', 'link-local (as IPv4 inside IPv6)'],
    ['64:ff9b::192.168.0.1', 'private (as IPv4 inside IPv6)'],
    ['2002:c0a8:101::1', '6to4'],
    ['ff02::1', 'multicast'],
  ])('%s is not public: %s', (address, kind) => {
    expect(nonPublicKind(address)).toBe(kind);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('%s is public', (address) => {
    expect(nonPublicKind(address)).toBeUndefined();
  });

  it('refuses http, credentials in the URL, a fragment, and what is not a URL', () => {
    expect(() => targetUrl('http://hooks.example.com/x', false)).toThrow(
      /must be an https:\/\/ URL; got http:\/\/ \(plain http only with WEBHOOK_ALLOW_PRIVATE_TARGETS/,
    );
    expect(() => targetUrl('ftp://hooks.example.com/x', true)).toThrow(TargetRefused);
    expect(() => targetUrl('https://user:pw@hooks.example.com/x', false)).toThrow(/user name or password/);
    expect(() => targetUrl('https://hooks.example.com/x#y', false)).toThrow(/fragment/);
    expect(() => targetUrl('hooks.example.com', false)).toThrow(/not a URL/);
    expect(targetUrl('http://127.0.0.1:8080/x', true).port).toBe('8080');
  });

  it.each([
    ['https://127.0.0.1/x', /127\.0\.0\.1 is a loopback address/],
    ['https://localhost/x', /localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/],
    ['https://[::1]/x', /::1 is a loopback address/],
    ['https://[::ffff:169.254.169.254]/x', /is a link-local \(as IPv4 inside IPv6\) address/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://10.0.0.1/x', /private/],
  ])('refuses %s unless private targets are allowed', async (text, problem) => {
    await expect(resolveTarget(targetUrl(text, false), false)).rejects.toThrow(problem);
    await expect(resolveTarget(targetUrl(text, true), true)).resolves.toMatchObject({ address: expect.any(String) });
  });

  it('refuses a name that does not resolve', async () => {
    await expect(resolveTarget(targetUrl('https://no-such-host.invalid/x', false), false)).rejects.toThrow(/does not resolve/);
  });

  it('WEBHOOK_ALLOW_PRIVATE_TARGETS is refused in production', () => {
    const production = { APP_ENV: 'production', DATABASE_URL: 'postgres://db-1/lookup' };
    expect(() => loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).toThrow(/cannot be true in production/);
    expect(loadConfig({ ...production }).webhooks).toEqual({ enabled: true, pollIntervalMs: 200, concurrency: 16, allowPrivateTargets: false });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhooks.allowPrivateTargets).toBe(true);
    expect(() => loadConfig({ WEBHOOKS_POLL_INTERVAL_MS: '5' })).toThrow(/WEBHOOKS_POLL_INTERVAL_MS must be an integer in 10\.\.60000/);
  });
});
