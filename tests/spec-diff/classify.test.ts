// classifyChanges on real documents: the bundled contract before, and the same contract
// with one deliberate change after.
import { describe, expect, it } from 'vitest';
import { type ContractChanges, classifyChanges } from '../../scripts/spec-diff/classify.js';
import { contractPaths, readContractDocument } from '../../server/contract.js';

const contract = readContractDocument(contractPaths.full);
const HELLO = '/v1/companies/{companyId}/hello';
const SEARCH = '/v1/persons/search';
const PERSON = '/v1/persons/{personId}';

function changed(mutate: (doc: Record<string, any>) => void): ContractChanges {
  const after = structuredClone(contract);
  mutate(after);
  return classifyChanges(contract, after);
}
const operation = (result: ContractChanges, path: string) => result.operations.find((op) => op.path === path)!;
const kinds = (result: ContractChanges, path: string) => operation(result, path).changes.map((c) => c.kind);

describe('classifyChanges', () => {
  it('finds nothing between a contract and itself', () => {
    expect(classifyChanges(contract, structuredClone(contract))).toEqual({ operations: [], document: [], blocking: 0 });
  });

  it('removing a required response field of hello is breaking and blocks', () => {
    const result = changed((doc) => {
      const schema = doc.components.schemas.HelloResponse;
      schema.required = schema.required.filter((name: string) => name !== 'message');
      delete schema.properties.message;
    });
    expect(result.operations.map((op) => op.operationId)).toEqual(['hello']); // reported once, at the operation
    expect(operation(result, HELLO).draft).toBe(false);
    expect(kinds(result, HELLO)).toEqual(['breaking', 'breaking']);
    expect(operation(result, HELLO).changes[1]!.location).toBe('responses.200.content.application/json.schema.properties.message');
    expect(result.blocking).toBe(2);
  });

  it('adding an optional response field is non-breaking', () => {
    const result = changed((doc) => {
      doc.components.schemas.HelloResponse.properties.greetedAt = { type: 'string', format: 'date-time' };
    });
    expect(kinds(result, HELLO)).toEqual(['non-breaking']);
    expect(operation(result, HELLO).changes[0]!.description).toMatch(/property `greetedAt`/);
    expect(result.blocking).toBe(0);
  });

  it('changing a description, a summary or an example is documentation', () => {
    const result = changed((doc) => {
      const hello = doc.paths[HELLO].get;
      hello.description = 'Greets a company, kindly.';
      hello.summary = 'Hello, world';
      hello.responses['200'].content['application/json'].examples.greeting.value.message = 'Hi, acme-corp!';
    });
    expect(kinds(result, HELLO)).toEqual(['documentation', 'documentation', 'documentation']);
    expect(result.blocking).toBe(0);
  });

  it('breaking a draft operation is reported but does not block', () => {
    const result = changed((doc) => {
      // The page size both searches share.
      doc.components.schemas.PageLimit.maximum = 20;
    });
    const search = operation(result, SEARCH);
    expect(search.draft).toBe(true);
    expect(search.changes).toEqual([expect.objectContaining({ kind: 'breaking', description: expect.stringMatching(/maximum.*\(100 → 20\)/) })]);
    expect(result.blocking).toBe(0);
  });

  it('a draft promoted to public may still break (draft at either side), and the promotion is reported', () => {
    const result = changed((doc) => {
      delete doc.paths[PERSON].get['x-draft'];
      doc.paths[PERSON].get.parameters.push({ name: 'fields', in: 'query', required: true, schema: { type: 'string' } });
    });
    const person = operation(result, PERSON);
    expect(person.draft).toBe(true);
    expect(person.changes.map((c) => [c.kind, c.location])).toEqual([
      ['breaking', 'parameters.2'],
      ['non-breaking', 'x-draft'],
    ]);
    expect(result.blocking).toBe(0);
  });

  it('demoting a public operation to draft blocks: its consumers lose it', () => {
    const result = changed((doc) => {
      doc.paths[HELLO].get['x-draft'] = true;
    });
    expect(operation(result, HELLO)).toMatchObject({ draft: false, changes: [{ kind: 'breaking', location: 'x-draft' }] });
    expect(result.blocking).toBe(1);
  });

  it('removing a public operation blocks; adding one does not', () => {
    const removed = changed((doc) => delete doc.paths[HELLO]);
    expect(operation(removed, HELLO).changes).toEqual([expect.objectContaining({ kind: 'breaking', location: '(operation)' })]);
    expect(removed.blocking).toBe(1);
    const added = changed((doc) => {
      doc.paths['/v1/ping'] = { get: { operationId: 'ping', responses: { '204': { description: 'Alive.' } } } };
    });
    expect(kinds(added, '/v1/ping')).toEqual(['non-breaking']);
    expect(added.blocking).toBe(0);
  });

  it('reports document-level changes once, outside the operations', () => {
    const result = changed((doc) => {
      doc.info.description += '\nMore words.';
      doc.servers.pop();
    });
    expect(result.operations).toEqual([]);
    expect(result.document.map((c) => [c.kind, c.location])).toEqual([
      ['documentation', 'info.description'],
      ['documentation', 'servers.2'],
    ]);
  });

  it('a type its const already implies restricts nothing; a type that does restrict is breaking', () => {
    const forbiddenError = (doc: Record<string, any>) => doc.components.responses.Forbidden.content['application/json'].schema.allOf[1].properties.error;
    const before = structuredClone(contract);
    delete forbiddenError(before).type;
    expect(kinds(classifyChanges(before, contract), HELLO)).toEqual(['non-breaking']);

    const contradicting = structuredClone(before);
    forbiddenError(contradicting).type = 'integer'; // no value passes any more
    expect(kinds(classifyChanges(before, contradicting), HELLO)).toEqual(['breaking']);
  });
});
