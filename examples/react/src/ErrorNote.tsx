import { LookupApiError } from '@lookup/client';

/** A failed query, said as the service said it: code, status, what was wrong, and the request id to quote. */
export function ErrorNote({ error }: { error: Error }) {
  if (!(error instanceof LookupApiError)) return <p role="alert">No answer: {error.message}</p>;
  return (
    <p role="alert" data-testid="error">
      <strong>{error.code}</strong> (HTTP {error.status})
      {error.details?.map((d) => (
        <span key={d.path}>{` ${d.path}: ${d.message}.`}</span>
      ))}
      {error.retryAfter !== undefined && <span> Try again in {error.retryAfter} s.</span>}
      {error.requestId && <small> Request {error.requestId}</small>}
    </p>
  );
}
