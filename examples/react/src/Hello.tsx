import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorNote } from './ErrorNote.tsx';
import type { Lookup } from './lookup.ts';

/** Hello for a company: whether this token may see it. */
export function Hello({ lookup }: { lookup: Lookup }) {
  const [companyId, setCompanyId] = useState('acme-corp');
  const hello = useQuery({ ...lookup.hello(companyId), enabled: companyId !== '' });
  return (
    <section aria-label="hello">
      <label>
        Company <input name="companyId" value={companyId} onChange={(e) => setCompanyId(e.target.value)} />
      </label>
      {hello.data && <p data-testid="greeting">{hello.data.message}</p>}
      {hello.error && <ErrorNote error={hello.error} />}
    </section>
  );
}
