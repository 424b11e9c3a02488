// `npm run mock`'s command line and banner (no Prism started here).
import { describe, expect, it } from 'vitest';
import { parseMockArgs } from '../../mock/args.js';
import { operationLines } from '../../mock/banner.js';
import { prismArgs } from '../../mock/prism.js';
import { contractPaths } from '../../server/contract.js';

describe('npm run mock arguments', () => {
  it('defaults to port 4010, static examples, localhost', () => {
    expect(parseMockArgs([], {})).toEqual({ port: 4010, host: '127.0.0.1', dynamic: false, seed: undefined, help: false, prismArgs: [] });
  });

  it('takes the port from MOCK_PORT, and --port over it', () => {
    expect(parseMockArgs([], { MOCK_PORT: '5000' }).port).toBe(5000);
    expect(parseMockArgs(['--port', '5001'], { MOCK_PORT: '5000' }).port).toBe(5001);
    expect(parseMockArgs(['--port=5002'], {}).port).toBe(5002);
    expect(() => parseMockArgs([], { MOCK_PORT: 'http' })).toThrow(/MOCK_PORT/);
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
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.includes('hello'))).not.toMatch(/DRAFT/);
    expect(lines.filter((l) => /searchPersons|getPerson|searchEmployees/.test(l)).every((l) => l.includes('DRAFT'))).toBe(true);
  });
});
