// `npm run mock`'s command line and banner (no Prism started here).
import { describe, expect, it } from 'vitest';
import { MockUsageError, parseMockArgs } from '../../mock/args.js';
import { operationLines } from '../../mock/banner.js';
import { prismArgs } from '../../mock/prism.js';
import { contractPaths } from '../../server/contract.js';

describe('npm run mock arguments', () => {
  it('defaults to port 4010, static examples, localhost', () => {
    expect(parseMockArgs([], {})).toEqual({
      port: 4010,
      portFrom: 'default',
      host: '127.0.0.1',
      dynamic: false,
      seed: undefined,
      help: false,
      prismArgs: [],
    });
  });

  it('takes the port from PORT as npm start does, MOCK_PORT over it, and --port over both', () => {
    expect(parseMockArgs([], { PORT: '4101' })).toMatchObject({ port: 4101, portFrom: 'PORT' });
    expect(parseMockArgs([], { MOCK_PORT: '5000', PORT: '3000' })).toMatchObject({ port: 5000, portFrom: 'MOCK_PORT' });
    expect(parseMockArgs(['--port', '5001'], { MOCK_PORT: '5000', PORT: '3000' })).toMatchObject({ port: 5001, portFrom: '--port' });
    expect(parseMockArgs(['--port=5002'], {}).port).toBe(5002);
    expect(parseMockArgs([], { MOCK_PORT: '', PORT: '' })).toMatchObject({ port: 4010, portFrom: 'default' });
    expect(parseMockArgs([], { PORT: '0' }).port).toBe(0);
  });

  it('refuses a port that is not one, naming where it came from', () => {
    expect(() => parseMockArgs([], { MOCK_PORT: 'http' })).toThrow(MockUsageError);
    for (const [env, argv, name] of [
      [{ MOCK_PORT: 'http' }, [], 'MOCK_PORT'],
      [{ PORT: '70000' }, [], 'PORT'],
      [{ PORT: '-1' }, [], 'PORT'],
      [{}, ['--port', '4010.5'], '--port'],
    ] as const) {
      expect(() => parseMockArgs([...argv], env), name).toThrow(new RegExp(`^${name} must be a port number`));
    }
  });

  it('turns on dynamic mode with --dynamic (or a --seed), passing other flags to Prism', () => {
    expect(parseMockArgs(['--dynamic'], {})).toMatchObject({ dynamic: true, seed: undefined });
    expect(parseMockArgs(['--seed', 'abc', '--errors'], {})).toMatchObject({ dynamic: true, seed: 'abc', prismArgs: ['--errors'] });
  });

  it('runs prism mock on the full contract, with a fixed seed in dynamic mode', () => {
    expect(prismArgs({ port: 4010 })).toEqual(['mock', '--port', '4010', '--host', '127.0.0.1', contractPaths.full]);
    expect(prismArgs({ port: 0, dynamic: true })).toEqual(['mock', '--port', '0', '--host', '127.0.0.1', '--dynamic', '--seed', 'lookup', contractPaths.full]);
  });
});

describe('npm run mock banner', () => {
  it('lists every operation and labels the drafts', () => {
    const lines = operationLines();
    expect(lines).toHaveLength(5);
    expect(lines.find((l) => l.includes('hello'))).not.toMatch(/DRAFT/);
    expect(lines.filter((l) => /searchPersons|getPerson|searchEmployees|listChanges/.test(l)).every((l) => l.includes('DRAFT'))).toBe(true);
  });
});
