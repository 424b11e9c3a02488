// The bench's instruction count (bench/instructions.ts) on the bare hello reference, with
// few requests: a real process under valgrind's callgrind, counted batch by batch. Where
// valgrind is not installed the bench skips the count, and so does this test.
import { describe, expect, it } from 'vitest';
import { callgrindAvailable, countInstructions } from '../../bench/instructions.js';
import { helloReferenceTarget } from '../../bench/targets.js';

const credential = { token: 'plk_instructions_test', companies: ['acme'] };

describe.runIf(callgrindAvailable())('hello instructions per request under callgrind', () => {
  it('counts each batch of answered requests apart, alike from batch to batch', async () => {
    const bare = helloReferenceTarget([credential], { companyId: 'acme', token: credential.token });
    const counted = await countInstructions(bare, { path: '/v1/companies/acme/hello', token: credential.token }, 4, {
      warmupRequests: 400,
      batchRequests: 400,
      batches: 2,
    });
    expect(counted.perRequest).toHaveLength(2);
    // node:http parsing a request and writing an answer runs tens of thousands of
    // instructions, not hundreds, nor tens of millions.
    for (const perRequest of counted.perRequest) expect(perRequest).toBeGreaterThan(5_000);
    for (const perRequest of counted.perRequest) expect(perRequest).toBeLessThan(2_000_000);
    const [first, second] = counted.perRequest as [number, number];
    expect(Math.max(first, second) / Math.min(first, second)).toBeLessThan(3);
  }, 240_000);
});
