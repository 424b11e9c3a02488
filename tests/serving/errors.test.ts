// The error registry and the contract agree: same codes, and every status an operation
// declares for an error is the registry's status for the codes it can carry.
import { describe, expect, it } from 'vitest';
import { errorCodeValues } from '../../generated/types.full.js';
import { loadContract } from '../../server/contract.js';
import { ApiError, errorRegistry } from '../../server/errors.js';

describe('error registry', () => {
  it('holds exactly the contract ErrorCode enum', () => {
    expect(Object.keys(errorRegistry).sort()).toEqual([...errorCodeValues].sort());
  });

  it('gives each code the status the contract declares it under', () => {
    const api = loadContract();
    for (const op of api.router.getOperations()) {
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        if (Number(status) < 400) continue;
        const examples = Object.values<any>(response.content['application/json'].examples);
        for (const example of examples) {
          const { status: usual, alsoSentWith = [] } = errorRegistry[example.value.error as keyof typeof errorRegistry];
          expect([usual, ...alsoSentWith], `${op.operationId} ${status} ${example.value.error}`).toContain(Number(status));
        }
      }
    }
  });

  it('sends details only when there are some', () => {
    expect(new ApiError('forbidden').body).toEqual({ error: 'forbidden' });
    expect(new ApiError('invalid_request', []).body).toEqual({ error: 'invalid_request' });
    expect(new ApiError('invalid_request', [{ path: '/body', message: 'x' }]).body).toEqual({
      error: 'invalid_request',
      details: [{ path: '/body', message: 'x' }],
    });
  });
});
