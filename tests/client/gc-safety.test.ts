// Timeouts and aborts still end calls while the garbage collector runs constantly.
// Node's fetch follows abort signals through weak references; AbortSignal.timeout/any
// or a Request nobody holds can be collected mid-call and the call then hangs forever.
// The scenarios run in a child process because vitest's workers have no --expose-gc.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('timeouts under garbage-collector pressure', () => {
  it('end every hanging call: no response, a POST, a stalled body, a retry, a caller abort', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'tests/client/fixtures/gc-pressure.ts'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    const results: Record<string, string> = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(Object.keys(results)).toHaveLength(5);
    for (const [scenario, outcome] of Object.entries(results)) {
      expect(outcome, scenario).toMatch(scenario === 'caller aborts' ? /^AbortError/ : /^TimeoutError/);
    }
  });
});
