// The one place the app makes its client: the drafts client (the person operations are
// drafts, served by a development server and the mock), and the query options built on it.
import { createLookupDraftsClient } from '@lookup/client/drafts';
import { createLookupQueries } from '@lookup/client/react-query';

export function connect(baseUrl: string, token: string) {
  return createLookupQueries(createLookupDraftsClient({ baseUrl, token }));
}

export type Lookup = ReturnType<typeof connect>;
