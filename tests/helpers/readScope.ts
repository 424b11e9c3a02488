// What a read's scope holds besides its credential's companies and page, for tests that
// read through the queries directly: a credential granted every field group, and a
// fingerprint of no search (no page of theirs is asked for by cursor).
import { everyField } from '../../server/domain/fieldGroups.js';

export const everyFieldScope = { fields: everyField, fingerprint: 'tests' } as const;
