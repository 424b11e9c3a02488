import type { Person } from '@lookup/client/drafts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorNote } from './ErrorNote.tsx';
import type { Lookup } from './lookup.ts';

const pageSize = 5;

/**
 * A person's name as their first employment records it (people have no name of their own);
 * a credential without the `name` field group reads none.
 */
export function nameOf(person: Person): string {
  const { firstName, lastName } = person.employments[0]?.demographics ?? {};
  return firstName !== undefined && lastName !== undefined ? `${firstName} ${lastName}` : '(name withheld)';
}

/** Search by last name; the list grows a page at a time, by cursor. */
export function People({ lookup, onPick }: { lookup: Lookup; onPick: (personId: string) => void }) {
  const [lastName, setLastName] = useState('');
  const [filters, setFilters] = useState<{ lastName?: string } | undefined>();
  const pages = useInfiniteQuery({ ...lookup.searchPersonsInfinite({ ...filters, limit: pageSize }), enabled: filters !== undefined });
  const people = pages.data?.pages.flatMap((page) => page.persons) ?? [];
  const total = pages.data?.pages[0]?.pagination.total;
  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters(lastName ? { lastName } : {});
  };
  return (
    <section aria-label="people">
      <form onSubmit={search} aria-label="search">
        <label>
          Last name contains <input name="lastName" value={lastName} onChange={(e) => setLastName(e.target.value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      {pages.error && <ErrorNote error={pages.error} />}
      {total !== undefined && (
        <p data-testid="count">
          {people.length} of {total}
        </p>
      )}
      <ol>
        {people.map((person) => (
          <li key={person.id}>
            <button type="button" data-testid="person" data-person-id={person.id} onClick={() => onPick(person.id)}>
              {nameOf(person)}
            </button>
          </li>
        ))}
      </ol>
      {pages.hasNextPage && (
        <button type="button" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {pages.isFetchingNextPage ? 'Loading…' : 'More'}
        </button>
      )}
    </section>
  );
}
