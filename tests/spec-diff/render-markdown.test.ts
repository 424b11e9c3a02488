// The Markdown report: verdict, per-operation table, and changes grouped by kind.
import { describe, expect, it } from 'vitest';
import type { ContractChanges } from '../../scripts/spec-diff/classify.js';
import { renderMarkdown, renderNoPreviousContract } from '../../scripts/spec-diff/render-markdown.js';

const header = { ref: 'HEAD~1', commit: '0123456789abcdef0123456789abcdef01234567' };

describe('renderMarkdown', () => {
  it('leads with the verdict and groups each operation by kind', () => {
    const result: ContractChanges = {
      blocking: 1,
      document: [{ kind: 'documentation', description: '[Replaced] document metadata (info.version)', location: 'info.version' }],
      operations: [
        {
          method: 'GET',
          path: '/v1/companies/{companyId}/hello',
          operationId: 'hello',
          draft: false,
          changes: [
            { kind: 'breaking', description: '[Removed] property `message`', location: 'responses.200.content.application/json.schema.properties.message' },
            { kind: 'documentation', description: '[Replaced] annotation (summary)', location: 'summary' },
          ],
        },
        {
          method: 'POST',
          path: '/v1/persons/search',
          operationId: 'searchPersons',
          draft: true,
          changes: [{ kind: 'breaking', description: '[Replaced] maximum validator of `limit`', location: 'requestBody' }],
        },
      ],
    };
    const markdown = renderMarkdown(result, header);
    expect(markdown).toContain('## Contract changes: `HEAD~1` (0123456) → working copy');
    expect(markdown).toContain('**1 breaking change to public operations.**');
    expect(markdown).toContain('1 breaking change to draft operations, allowed');
    expect(markdown).toContain('| `GET /v1/companies/{companyId}/hello` hello | 1 | 0 | 1 | 0 |');
    expect(markdown).toContain('| `POST /v1/persons/search` searchPersons (draft) | 1 | 0 | 0 | 0 |');
    expect(markdown).toContain('| Whole document | 0 | 0 | 1 | 0 |');
    const hello = markdown.slice(markdown.indexOf('### `GET'), markdown.indexOf('### `POST'));
    expect(hello).toMatch(/\*\*Breaking\*\*\n\n- \[Removed\] property `message` {2}\n {2}at `responses\.200/);
    expect(hello.indexOf('**Breaking**')).toBeLessThan(hello.indexOf('<details><summary>Documentation: 1</summary>'));
    expect(hello).toMatch(/<summary>Documentation: 1<\/summary>\n\n- \[Replaced\] annotation \(summary\) {2}\n {2}at `summary`\n\n<\/details>/);
  });

  it('does not repeat a ref that is the commit itself', () => {
    expect(renderMarkdown({ operations: [], document: [], blocking: 0 }, { ref: '0123456', commit: header.commit })).toMatch(
      /^## Contract changes: `0123456` → working copy/,
    );
  });

  it('says so when nothing changed, and when there was no contract before', () => {
    expect(renderMarkdown({ operations: [], document: [], blocking: 0 }, header)).toContain('No contract changes.');
    expect(renderNoPreviousContract(header)).toContain('No previous contract: `openapi.yaml` did not exist at `HEAD~1`');
  });
});
