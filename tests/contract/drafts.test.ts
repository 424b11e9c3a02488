// Draft operations are in the full contract and absent from the public one.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { paths as FullPaths } from '../../generated/types.full.js';
import type { paths as PublicPaths } from '../../generated/types.public.js';
import { contractPaths, readContractDocument } from '../../server/contract.js';
import { draftMentionsInDocument } from '../helpers/draftMentions.js';

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
function operations(doc: Record<string, any>) {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]: [string, any]) => methods.filter((m) => item[m]).map((m) => ({ path, method: m, ...item[m] })));
}

describe('draft operations', () => {
  const full = readContractDocument(contractPaths.full);
  const pub = readContractDocument(contractPaths.public);

  it('are marked in the full contract: x-draft, the Draft tag and a warning', () => {
    const drafts = operations(full).filter((op) => op['x-draft']);
    expect(drafts.map((op) => op.operationId).sort()).toEqual(['getPerson', 'listChanges', 'searchEmployees', 'searchPersons']);
    for (const op of drafts) {
      expect(op.tags).toEqual(['Draft']);
      expect(op.description).toMatch(/Draft — do not call from sandbox or production/);
    }
    expect(full.tags.map((t: any) => t.name)).toContain('Draft');
  });

  it('are absent from the public bundle, with their schemas and tag', () => {
    expect(operations(pub).map((op) => op.operationId)).toEqual(['hello']);
    expect(operations(pub).some((op) => op['x-draft'])).toBe(false);
    expect(Object.keys(pub.components.schemas)).not.toContain('Person');
    expect(pub.tags.map((t: any) => t.name)).not.toContain('Draft');
  });

  it('are not mentioned anywhere in the public bundle: no overview row, error code, section or local server', () => {
    expect(draftMentionsInDocument(pub)).toEqual([]);
    expect(pub.components.schemas.ErrorCode.enum).toEqual([
      'invalid_api_key',
      'rate_limited',
      'invalid_company_id',
      'invalid_request',
      'forbidden',
      'not_found',
      'internal_error',
      'service_unavailable',
      'method_not_allowed',
    ]);
    expect(pub.servers.map((s: any) => s.url)).toEqual(['https://sandbox.lookup.example.com', 'https://api.lookup.example.com']);
    // The full bundle keeps all of it, without the markers that sort the lines.
    expect(draftMentionsInDocument(full)).toEqual(expect.arrayContaining(['Search persons', 'invalid_person_id', 'localhost:3000']));
    expect(JSON.stringify(full)).not.toContain('<!--');
    expect(full.servers[0].url).toBe('http://localhost:3000');
  });

  it('are absent from the public types and present in the full types', () => {
    expectTypeOf<keyof PublicPaths>().toEqualTypeOf<'/v1/companies/{companyId}/hello'>();
    expectTypeOf<FullPaths>().toHaveProperty('/v1/persons/search');
    expectTypeOf<FullPaths>().toHaveProperty('/v1/employees/search');
    expectTypeOf<FullPaths>().toHaveProperty('/v1/persons/{personId}');
  });
});
