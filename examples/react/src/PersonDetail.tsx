import type { CoverageStatus, MembershipStatus } from '@lookup/client/drafts';
import { useQuery } from '@tanstack/react-query';
import { ErrorNote } from './ErrorNote.tsx';
import type { Lookup } from './lookup.ts';
import { nameOf } from './People.tsx';

// Exhaustive: a state the contract adds is a compile error here.
const membershipLabels = {
  not_invited: 'Not invited',
  invited_pending: 'Invited',
  invited_expired: 'Invitation expired',
  active: 'Active',
  revoked_access: 'Access revoked',
} satisfies Record<MembershipStatus, string>;
const coverageLabels = {
  enrolled: 'Enrolled',
  enrolled_not_paying: 'Enrolled, not paying',
  awaiting_coverage: 'Awaiting coverage',
  waived: 'Waived',
  terminated: 'Terminated',
} satisfies Record<CoverageStatus, string>;

/** One person with every employment this token may see. */
export function PersonDetail({ lookup, personId }: { lookup: Lookup; personId: string }) {
  const { data, error, isPending } = useQuery(lookup.getPerson(personId));
  if (error) return <ErrorNote error={error} />;
  if (isPending) return <p>Loading…</p>;
  const { person, asOf } = data;
  return (
    <article aria-label="person" data-person-id={person.id}>
      <h2 data-testid="person-name">{nameOf(person)}</h2>
      <p>
        As of {asOf}, {person.employments.length} employment(s) this token may see.
      </p>
      <table>
        <thead>
          <tr>
            <th>Company</th>
            <th>Membership</th>
            <th>Coverage</th>
          </tr>
        </thead>
        <tbody>
          {person.employments.map((employment) => (
            <tr key={employment.id} data-testid="employment">
              <td>{employment.companyId}</td>
              <td>{employment.membership ? membershipLabels[employment.membership.status] : 'withheld'}</td>
              <td>{employment.coverage ? coverageLabels[employment.coverage.status] : 'none'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
